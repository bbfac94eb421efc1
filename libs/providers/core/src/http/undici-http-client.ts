import { Agent } from './undici-dispatchers';
import type { UpstreamHttpClient, UpstreamHttpRequest, UpstreamHttpResponse } from '../http-client';
import { DispatchedExchange } from './dispatched-exchange';

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

function sendRequest(
  agent: Agent,
  splitUrl: (url: string) => SplitUrl,
  request: UpstreamHttpRequest,
): Promise<UpstreamHttpResponse> {
  const { signal } = request;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const { origin, path } = splitUrl(request.url);
  const exchange = new DispatchedExchange(signal);
  // undici hands a request it refuses (a closed agent, an invalid option) to the handler's error
  // callback rather than throwing: the exchange's head then rejects, mapped as a transport error is.
  agent.dispatch(
    {
      origin,
      path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      headersTimeout: request.headersTimeoutMs,
      bodyTimeout: request.bodyTimeoutMs,
    },
    exchange,
  );
  return exchange.head;
}
