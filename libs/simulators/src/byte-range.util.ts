import { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** What a `Range` header selects from a body of known length. */
export type SelectedRange =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE_BYTE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * One byte range (`start-end`, `start-` or `-suffix`) resolved against the length, as the result
 * links and `/content` of real upstreams serve it. Anything else (several ranges, another unit, a
 * backwards range) selects the whole body, which RFC 9110 allows; a start past the end is a 416.
 */
export function selectRange(header: string | string[] | undefined, length: number): SelectedRange {
  const match = typeof header === 'string' ? SINGLE_BYTE_RANGE.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  const [, first, last] = match;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, length - suffix), end: length - 1 };
  }
  const start = Number(first);
  const end = last === '' ? length - 1 : Math.min(Number(last), length - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  return start >= length ? { kind: 'unsatisfiable' } : { kind: 'part', start, end };
}

/**
 * Writes the body, or the part the `Range` header asks for (206 with `Content-Range`; 416 when it
 * cannot be met), always announcing `Accept-Ranges: bytes`. A HEAD gets the headers only.
 */
export function sendBytesWithRange(
  response: ServerResponse,
  request: { method: string; headers: Record<string, string | string[] | undefined> },
  bytes: Buffer,
  headers: OutgoingHttpHeaders,
): void {
  const range = selectRange(request.headers['range'], bytes.length);
  const common = { ...headers, 'accept-ranges': 'bytes' };
  if (range.kind === 'unsatisfiable') {
    response.writeHead(416, { ...common, 'content-range': `bytes */${bytes.length}`, 'content-length': 0 });
    response.end();
    return;
  }
  const body = range.kind === 'part' ? bytes.subarray(range.start, range.end + 1) : bytes;
  response.writeHead(range.kind === 'part' ? 206 : 200, {
    ...common,
    'content-length': body.length,
    ...(range.kind === 'part' && { 'content-range': `bytes ${range.start}-${range.end}/${bytes.length}` }),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}
