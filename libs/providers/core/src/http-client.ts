import type { CancellationSignal } from './http/request-cancellation';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface UpstreamHttpRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: Buffer | string;
  signal?: CancellationSignal;
  /** Time allowed until the response headers arrive. */
  headersTimeoutMs?: number;
  /** Time allowed between two body chunks. */
  bodyTimeoutMs?: number;
}

export interface UpstreamHttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as it arrives; consume it, or call dump() to free the connection. */
  body: AsyncIterable<Buffer>;
  text(): Promise<string>;
  bytes(): Promise<Buffer>;
  dump(): Promise<void>;
}

/**
 * The only way adapters reach the network. Injected, so adapter tests replay recorded responses.
 * Transport failures are thrown as UpstreamError (kind `timeout` or `overload`); an abort through
 * the signal is rethrown as the signal's reason.
 */
export interface UpstreamHttpClient {
  request(request: UpstreamHttpRequest): Promise<UpstreamHttpResponse>;
}
