import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { Dispatcher } from 'undici';
import { Client } from './undici-dispatchers';
import { PrivateHostAllowList } from './address-policy';
import { linkAbortController } from './linked-abort.util';
import { asUndiciSignal, type CancellationSignal } from './request-cancellation';
import { SafeFetchError } from './safe-fetch-error';
import { assertAllowedAddress, literalAddressOf, parseHttpUrl } from './url-policy';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface SafeFetcherOptions {
  /** Operator exceptions to the refused ranges: host, host:port, [v6]:port, IP address or CIDR. */
  allowPrivateHosts?: readonly string[];
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Time allowed for the whole fetch, redirects and body included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Resolves a host name to every address it has; replaceable in tests. Default: the system resolver. */
  resolveHost?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface SafeFetchResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType?: string;
  /** Iterating past `maxBytes` throws SafeFetchError `too_large`; stopping early frees the connection. */
  body: AsyncIterable<Buffer>;
}

/**
 * The request headers a caller may set: which bytes to send, nothing about who asks. Every other
 * header is the fetcher's own, so a fetched URL never sees a caller's or a client's credentials.
 */
export interface SafeFetchRequestHeaders {
  range?: string;
  'if-range'?: string;
}

export interface SafeFetchOptions {
  signal?: CancellationSignal;
  /** Sent on the first request and on every redirect hop (a store's redirect to its CDN keeps the range). */
  headers?: SafeFetchRequestHeaders;
  /** This fetch's cap instead of the fetcher's `maxBytes` (a relayed video is larger than any image). */
  maxBytes?: number;
  /**
   * What the fetcher's `timeoutMs` covers. `whole` (the default): redirects and body included.
   * `headers`: only until the answer's headers arrive; the body then flows as fast as the caller
   * reads it (a relay to a client, which the caller's signal ends), each chunk within the
   * connection's idle limit.
   */
  timeLimit?: 'whole' | 'headers';
  /**
   * A POST of the gateway's own body (a webhook delivery) instead of a GET. Its headers are the
   * gateway's own (a content type, a signature), never a caller's. A redirect answer is returned as
   * it is, never followed: a POST re-sent elsewhere would carry its signed body to an unchecked place.
   */
  post?: SafePost;
}

export interface SafePost {
  body: string;
  /** Lower-case names; visible ASCII values. They may not replace the fetcher's own headers. */
  headers: Readonly<Record<string, string>>;
}

export interface SafeFetcher {
  fetch(url: string, options?: SafeFetchOptions): Promise<SafeFetchResponse>;
}

interface PinnedResponse {
  /** The one-off client holding the connection; destroyed once the body is done with. */
  client: Client;
  response: Dispatcher.ResponseData;
}

interface CheckedTarget {
  url: URL;
  address: ResolvedAddress;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
/** Sent instead of anything the caller had: a fetched URL never sees the caller's credentials. */
const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'user-agent': 'generation-gateway-fetcher',
};
const CALLER_HEADER_NAMES = ['range', 'if-range'] as const satisfies ReadonlyArray<
  keyof SafeFetchRequestHeaders
>;
/** Visible ASCII and spaces: a header value that cannot split the request or smuggle another line. */
const SAFE_HEADER_VALUE = /^[\x20-\x7e]{1,256}$/;
/** The gateway's own POST headers: longer (two signatures), equally unable to split the request. */
const POST_HEADER_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const POST_HEADER_VALUE = /^[\x20-\x7e]{1,1024}$/;

async function resolveWithSystem(hostname: string): Promise<ResolvedAddress[]> {
  const addresses: LookupAddress[] = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
}

/**
 * The one way to fetch a URL that a client or an admin supplied. The host is resolved once, every
 * address is checked, and the connection goes to the checked address (so a second DNS answer cannot
 * swap in an internal one); every redirect hop is checked again; size and time are capped.
 */
export function createSafeFetcher(options: SafeFetcherOptions): SafeFetcher {
  const policy = addressPolicyOf(options);

  /** Follows redirects hop by hop, checking each target; returns the first answer that is not one. */
  async function requestFollowingRedirects(
    location: string,
    requestHeaders: Readonly<Record<string, string>>,
    signal: CancellationSignal,
    post: SafePost | undefined,
  ): Promise<PinnedResponse> {
    let target = await checkTarget(parseHttpUrl(location), policy, signal);
    for (let redirects = 0; ; redirects += 1) {
      const pinned = await requestPinned(target, requestHeaders, signal, post);
      const { statusCode, headers } = pinned.response;
      if (post) return pinned;
      const redirectLocation = REDIRECT_STATUSES.has(statusCode) ? headers.location : undefined;
      if (typeof redirectLocation !== 'string') return pinned;
      void pinned.client.destroy();
      if (redirects >= options.maxRedirects) {
        throw new SafeFetchError('too_many_redirects', `more than ${options.maxRedirects} redirects`);
      }
      target = await checkTarget(parseHttpUrl(redirectLocation, target.url), policy, signal);
    }
  }

  return {
    async fetch(location, fetchOptions = {}) {
      const headers = withPostHeaders(requestHeadersOf(fetchOptions.headers), fetchOptions.post);
      const maxBytes = fetchOptions.maxBytes ?? options.maxBytes;
      const abortController = linkAbortController(fetchOptions.signal);
      const timer = setTimeout(() => {
        abortController.abort(
          new SafeFetchError('timeout', `fetch took longer than ${options.timeoutMs} ms`),
        );
      }, options.timeoutMs);
      timer.unref();
      const release = (): void => {
        clearTimeout(timer);
        abortController.unlink();
      };
      try {
        const { client, response } = await requestFollowingRedirects(
          location,
          headers,
          abortController.signal,
          fetchOptions.post,
        );
        const contentLength = Number(response.headers['content-length']);
        if (Number.isFinite(contentLength) && contentLength > maxBytes) {
          void client.destroy();
          throw new SafeFetchError('too_large', `body of ${contentLength} bytes exceeds ${maxBytes}`);
        }
        if (fetchOptions.timeLimit === 'headers') clearTimeout(timer);
        const contentType = response.headers['content-type'];
        return {
          status: response.statusCode,
          headers: response.headers,
          contentType: typeof contentType === 'string' ? contentType : undefined,
          body: limitBody(response.body, maxBytes, abortController.signal, () => {
            release();
            // A one-off connection: nothing is gained by keeping it open once the body is read.
            void client.destroy();
          }),
        };
      } catch (error) {
        release();
        throw fromFetchError(error, abortController.signal);
      }
    },
  };
}

interface AddressPolicy {
  allowList: PrivateHostAllowList;
  resolveHost: (hostname: string) => Promise<ResolvedAddress[]>;
}

function addressPolicyOf(
  options: Pick<SafeFetcherOptions, 'allowPrivateHosts' | 'resolveHost'>,
): AddressPolicy {
  return {
    allowList: new PrivateHostAllowList(options.allowPrivateHosts ?? []),
    resolveHost: options.resolveHost ?? resolveWithSystem,
  };
}

/** Resolves the host once and checks every address; the connection then goes to the first. */
async function checkTarget(
  url: URL,
  { allowList, resolveHost }: AddressPolicy,
  signal: CancellationSignal,
): Promise<CheckedTarget> {
  let addresses: ResolvedAddress[];
  const literal = literalAddressOf(url);
  if (literal) {
    addresses = [literal];
  } else {
    addresses = await untilAborted(
      resolveHost(url.hostname).catch(() => []),
      signal,
    );
    if (addresses.length === 0)
      throw new SafeFetchError('unresolvable_host', `cannot resolve ${url.hostname}`);
  }
  // One refused address refuses the host: a name mixing public and internal addresses is not trusted.
  for (const { address } of addresses) assertAllowedAddress(url, address, allowList);
  return { url, address: addresses[0] };
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts (DNS cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: CancellationSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The fetcher's own headers plus the caller's range headers, whose values must be plain ASCII. */
function requestHeadersOf(extra: SafeFetchRequestHeaders | undefined): Readonly<Record<string, string>> {
  if (!extra) return REQUEST_HEADERS;
  const headers = { ...REQUEST_HEADERS };
  for (const name of CALLER_HEADER_NAMES) {
    const value = extra[name];
    if (value === undefined) continue;
    if (!SAFE_HEADER_VALUE.test(value)) {
      throw new SafeFetchError(
        'invalid_header',
        `the ${name} header is not plain ASCII of at most 256 characters`,
      );
    }
    headers[name] = value;
  }
  return headers;
}

/** The POST's own headers beside the fetcher's, which they may not replace. */
function withPostHeaders(
  headers: Readonly<Record<string, string>>,
  post: SafePost | undefined,
): Readonly<Record<string, string>> {
  if (!post) return headers;
  const merged = { ...headers };
  for (const [name, value] of Object.entries(post.headers)) {
    if (!POST_HEADER_NAME.test(name) || name in headers || !POST_HEADER_VALUE.test(value)) {
      throw new SafeFetchError('invalid_header', `the ${name.slice(0, 64)} header cannot be sent`);
    }
    merged[name] = value;
  }
  return merged;
}

/** A one-off connection whose DNS lookup is answered with the checked address only. */
async function requestPinned(
  target: CheckedTarget,
  headers: Readonly<Record<string, string>>,
  signal: CancellationSignal,
  post?: SafePost,
): Promise<PinnedResponse> {
  const { address, family } = target.address;
  const client = new Client(target.url.origin, {
    connect: {
      lookup: (_hostname, lookupOptions, callback) => {
        if (lookupOptions.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      },
    },
  });
  try {
    const response = await client.request({
      path: target.url.pathname + target.url.search,
      method: post ? 'POST' : 'GET',
      headers,
      ...(post ? { body: post.body } : {}),
      signal: asUndiciSignal(signal),
    });
    return { client, response };
  } catch (error) {
    void client.destroy();
    throw error;
  }
}

async function* limitBody(
  body: AsyncIterable<Buffer>,
  maxBytes: number,
  signal: CancellationSignal,
  release: () => void,
): AsyncIterable<Buffer> {
  let received = 0;
  try {
    for await (const chunk of body) {
      received += chunk.length;
      if (received > maxBytes) throw new SafeFetchError('too_large', `body exceeds ${maxBytes} bytes`);
      yield chunk;
    }
  } catch (error) {
    throw fromFetchError(error, signal);
  } finally {
    release();
  }
}

function fromFetchError(error: unknown, signal: CancellationSignal): unknown {
  if (error instanceof SafeFetchError) return error;
  if (signal.aborted) return signal.reason;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  if (TIMEOUT_CODES.has(code)) return new SafeFetchError('timeout', `fetch timed out (${code})`);
  return new SafeFetchError('unreachable', `fetch failed (${code})`);
}

/**
 * Whether the fetcher would connect to `location`, without connecting: the URL's form, then every
 * address its host resolves to, against the same policy (a webhook endpoint checked when an operator
 * registers it; the delivery checks it again, since DNS answers change). Throws SafeFetchError.
 */
export async function checkFetchTarget(
  location: string,
  options: Pick<SafeFetcherOptions, 'allowPrivateHosts' | 'resolveHost' | 'timeoutMs'>,
): Promise<URL> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  const target = await checkTarget(parseHttpUrl(location), addressPolicyOf(options), signal).catch(
    (error: unknown) => {
      throw fromFetchError(error, signal);
    },
  );
  return target.url;
}
