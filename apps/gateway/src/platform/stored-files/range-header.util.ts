/** A single byte range as a `Range` header asks for it: from an offset, or the last `length` bytes. */
export type RequestedRange = { start: number; end?: number } | { suffixLength: number };

const SINGLE_BYTE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * Reads a `Range: bytes=…` header asking for one range: `start-end`, `start-` or `-length`. Anything
 * else (another unit, several ranges, a range backwards, numbers past 2^53) reads as no range, and
 * the whole file is served, as RFC 9110 allows a server to do.
 */
export function parseRangeHeader(header: string | undefined): RequestedRange | undefined {
  const match = header === undefined ? null : SINGLE_BYTE_RANGE.exec(header.trim());
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '') {
    const suffixLength = Number(last);
    return last !== '' && Number.isSafeInteger(suffixLength) && suffixLength > 0
      ? { suffixLength }
      : undefined;
  }
  const start = Number(first);
  const end = last === '' ? undefined : Number(last);
  if (!Number.isSafeInteger(start) || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) {
    return undefined;
  }
  return end === undefined ? { start } : { start, end };
}
