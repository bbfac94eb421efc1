import { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { WireError } from './scripted-error';

/** Writes a complete JSON response on the raw socket (the simulated routes bypass Fastify's reply). */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
): void {
  if (response.destroyed || response.headersSent) return;
  const payload = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  response.end(payload);
}

export function sendWireError(response: ServerResponse, error: WireError): void {
  sendJson(response, error.status, error.body, error.headers);
}
