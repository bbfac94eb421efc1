import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One recorded upstream answer, replayed by startRecordedUpstream. */
export interface RecordedResponse {
  status: number;
  headers?: Record<string, string>;
  /** The body; a list is written piece by piece, `pauseMs` apart, to exercise incremental readers. */
  body?: string | Buffer | ReadonlyArray<string | Buffer>;
  pauseMs?: number;
  /** Leaves the response open after the body, like an upstream that is still generating. */
  holdOpen?: boolean;
  /** Never answers at all (for header timeouts). */
  silent?: boolean;
}

export interface ReceivedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The client's port: two requests with the same one shared a kept-alive connection. */
  clientPort: number;
  /** Settles when the connection that carried the request closes. */
  socketClosed: Promise<void>;
}

export interface RecordedUpstream {
  /** `http://127.0.0.1:<port>`, without trailing slash. */
  baseUrl: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Status answered for a request no recording matches, so a test sees the mismatch at once. */
export const UNRECORDED_STATUS = 599;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function writeRecorded(response: ServerResponse, recorded: RecordedResponse): Promise<void> {
  response.writeHead(recorded.status, recorded.headers);
  const pieces =
    recorded.body === undefined ? [] : Array.isArray(recorded.body) ? recorded.body : [recorded.body];
  for (const [index, piece] of pieces.entries()) {
    if (index > 0 && recorded.pauseMs) await pause(recorded.pauseMs);
    if (response.destroyed) return;
    response.write(piece);
  }
  if (!recorded.holdOpen) response.end();
  else response.flushHeaders();
}

/**
 * A loopback HTTP server replaying recorded upstream answers, keyed by `METHOD /path?query`, and
 * recording what it received. For adapter tests only.
 */
export async function startRecordedUpstream(
  routes: Record<string, RecordedResponse>,
): Promise<RecordedUpstream> {
  const requests: ReceivedRequest[] = [];
  // One promise per connection, not per request: a kept-alive connection carries many requests, and a
  // listener each went past the socket's ten (node's MaxListenersExceededWarning).
  const closedSockets = new WeakMap<Socket, Promise<void>>();
  const closedOf = (socket: Socket): Promise<void> => {
    let closed = closedSockets.get(socket);
    if (!closed) {
      closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      closedSockets.set(socket, closed);
    }
    return closed;
  };
  const server = createServer((request, response) => {
    const socketClosed = closedOf(request.socket);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const method = request.method ?? 'GET';
      const url = request.url ?? '/';
      requests.push({
        method,
        url,
        headers: request.headers,
        body: Buffer.concat(chunks),
        clientPort: request.socket.remotePort ?? 0,
        socketClosed,
      });
      const recorded = routes[`${method} ${url}`];
      if (!recorded) {
        response.writeHead(UNRECORDED_STATUS, { 'content-type': 'text/plain' });
        response.end(`no recording for ${method} ${url}`);
        return;
      }
      if (recorded.silent) return;
      void writeRecorded(response, recorded);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
