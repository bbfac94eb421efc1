import { ServerResponse } from 'node:http';

/** Writes the chunks of one kappa stream in either framing of upstreams.md §1.6. */
export interface KappaStreamWriter {
  writeChunk(chunk: unknown): void;
  /** The error envelope of a failure after the stream started; the caller ends the stream next. */
  writeError(envelope: unknown): void;
  end(): void;
}

/** `alt=sse`: each event is exactly `data: {json}\r\n\r\n`; no done sentinel, the close ends it. */
export function openKappaSseStream(response: ServerResponse): KappaStreamWriter {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const write = (value: unknown): void => {
    if (!response.destroyed) response.write(`data: ${JSON.stringify(value)}\r\n\r\n`);
  };
  return { writeChunk: write, writeError: write, end: () => response.end() };
}

/** No `alt`: one JSON array written element by element: `[` first, `,\r\n` next …, `]`. */
export function openKappaArrayStream(response: ServerResponse): KappaStreamWriter {
  response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
  let opened = false;
  const write = (value: unknown): void => {
    if (response.destroyed) return;
    response.write(`${opened ? ',\r\n' : '['}${JSON.stringify(value)}`);
    opened = true;
  };
  return {
    writeChunk: write,
    writeError: write,
    end: () => response.end(opened ? ']' : '[]'),
  };
}
