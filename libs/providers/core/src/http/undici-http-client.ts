import type { Dispatcher } from 'undici';
import { Agent } from './undici-dispatchers';
import type { UpstreamHttpClient, UpstreamHttpRequest, UpstreamHttpResponse } from '../http-client';
import { asUndiciSignal, type CancellationSignal } from './request-cancellation';
import { fromTransportError } from './transport-error.util';

export interface UndiciHttpClientOptions {
  /** Most connections kept to one upstream origin. */
  connectionsPerOrigin?: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs?: number;
  /** Default time until response headers arrive; a request may override it. */
  headersTimeoutMs?: number;
  /** Default time allowed between two body chunks; a request may override it. */
  bodyTimeoutMs?: number;
}

export type ClosableUpstreamHttpClient = UpstreamHttpClient & {
  /** Closes every pooled connection once in-flight requests finish. */
  close(): Promise<void>;
};

const DEFAULT_CONNECTIONS_PER_ORIGIN = 256;
const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 4_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 300_000;
const DEFAULT_BODY_TIMEOUT_MS = 300_000;
// perf-machinery: upstream-url-cache (docs/performance-machinery.md)
/** Distinct upstream URLs whose split is kept; a channel calls the same few URLs all day. */
const MAX_SPLIT_URLS = 1024;

interface SplitUrl {
  origin: string;
  path: string;
}

/** The production UpstreamHttpClient: one undici Agent, a keep-alive pool per origin, no pipelining. */
export function createUndiciHttpClient(options: UndiciHttpClientOptions = {}): ClosableUpstreamHttpClient {
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN,
    pipelining: 1,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    headersTimeout: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
    bodyTimeout: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
  });
  const splitUrls = new Map<string, SplitUrl>();
  const splitUrl = (url: string): SplitUrl => {
    let split = splitUrls.get(url);
    if (split === undefined) {
      const { origin, pathname, search } = new URL(url);
      // Cleared rather than evicted one by one: it only refills with the URLs still in use.
      if (splitUrls.size >= MAX_SPLIT_URLS) splitUrls.clear();
      split = { origin, path: pathname + search };
      splitUrls.set(url, split);
    }
    return split;
  };
  return {
    request: (request) => sendRequest(agent, splitUrl, request),
    close: () => agent.close(),
  };
}

async function sendRequest(
  agent: Agent,
  splitUrl: (url: string) => SplitUrl,
  request: UpstreamHttpRequest,
): Promise<UpstreamHttpResponse> {
  const { origin, path } = splitUrl(request.url);
  try {
    const response = await agent.request({
      origin,
      path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: asUndiciSignal(request.signal),
      headersTimeout: request.headersTimeoutMs,
      bodyTimeout: request.bodyTimeoutMs,
    });
    return new UndiciUpstreamResponse(response, request.signal);
  } catch (error) {
    throw fromTransportError(error, request.signal);
  }
}

class UndiciUpstreamResponse implements UpstreamHttpResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: AsyncIterable<Buffer>;

  constructor(
    private readonly response: Dispatcher.ResponseData,
    private readonly signal: CancellationSignal | undefined,
  ) {
    this.status = response.statusCode;
    this.headers = response.headers;
    this.body = { [Symbol.asyncIterator]: () => this.iterateBody() };
  }

  async text(): Promise<string> {
    try {
      return await this.response.body.text();
    } catch (error) {
      throw fromTransportError(error, this.signal);
    }
  }

  async bytes(): Promise<Buffer> {
    try {
      const bytes = await this.response.body.bytes();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw fromTransportError(error, this.signal);
    }
  }

  async dump(): Promise<void> {
    // Best effort: a failure while discarding a body only means the connection is not reused.
    await this.response.body.dump().catch(() => undefined);
  }

  /** The readable's own iterator, with transport errors mapped; return() destroys the socket's body. */
  private iterateBody(): AsyncIterator<Buffer> {
    const iterator: AsyncIterator<Buffer> = this.response.body[Symbol.asyncIterator]();
    const signal = this.signal;
    return {
      next: () =>
        iterator.next().catch((error: unknown) => {
          throw fromTransportError(error, signal);
        }),
      return: (value?: unknown) =>
        iterator.return ? iterator.return(value) : Promise.resolve({ done: true, value: undefined }),
    };
  }
}
