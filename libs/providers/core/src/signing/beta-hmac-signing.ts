import { createHash, createHmac } from 'node:crypto';

/**
 * BETA-HMAC-SHA256 (upstreams.md §4.2). Written by hand rather than with a cloud SDK's signer: the
 * scheme's algorithm token, header names and `request` terminator are its own, and the whole of it
 * is a dozen lines of node:crypto. Pure: the caller passes the time. In core because two channel
 * types sign with it, each with its own region and service: beta (§4.1) and the eta asset control
 * plane (§6.5).
 */
export const BETA_SIGNING_ALGORITHM = 'HMAC-SHA256';

const SCOPE_TERMINATOR = 'request';
const JSON_CONTENT_TYPE = 'application/json';
/** Lower-case, sorted: the order the canonical headers and `SignedHeaders` list them in. */
const SIGNED_HEADERS = ['content-type', 'host', 'x-content-sha256', 'x-date'] as const;

export interface BetaSigningInput {
  accessKey: string;
  secretKey: string;
  region: string;
  service: string;
  method: string;
  /** The whole request URL: its host, path and query are signed. */
  url: string;
  /** The exact body bytes sent. */
  body: string | Buffer;
  /** The signing time, milliseconds since the Unix epoch. */
  nowMs: number;
}

/** Every header a signed call carries: `Host`, `X-Date`, `X-Content-Sha256`, `Content-Type`, `Authorization`. */
export function signBetaRequest(input: BetaSigningInput): Record<string, string> {
  const url = new URL(input.url);
  const xDate = betaXDate(input.nowMs);
  const date = xDate.slice(0, 8);
  const payloadHash = sha256Hex(input.body);
  const headers: Record<(typeof SIGNED_HEADERS)[number], string> = {
    'content-type': JSON_CONTENT_TYPE,
    // WHATWG URLs lower-case the host and drop a default port, as §0's {host} is written.
    host: url.host,
    'x-content-sha256': payloadHash,
    'x-date': xDate,
  };
  const canonicalRequest = [
    input.method,
    url.pathname,
    betaCanonicalQuery(url.search.slice(1)),
    SIGNED_HEADERS.map((name) => `${name}:${headers[name].trim()}\n`).join(''),
    SIGNED_HEADERS.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${date}/${input.region}/${input.service}/${SCOPE_TERMINATOR}`;
  const stringToSign = [BETA_SIGNING_ALGORITHM, xDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = [date, input.region, input.service, SCOPE_TERMINATOR].reduce<string | Buffer>(
    (key, part) => hmacSha256(key, part),
    input.secretKey,
  );
  const signature = hmacSha256(signingKey, stringToSign).toString('hex');
  return {
    ...headers,
    authorization:
      `${BETA_SIGNING_ALGORITHM} Credential=${input.accessKey}/${scope}, ` +
      `SignedHeaders=${SIGNED_HEADERS.join(';')}, Signature=${signature}`,
  };
}

/** `YYYYMMDD'T'HHMMSS'Z'` in UTC. */
export function betaXDate(nowMs: number): string {
  return new Date(nowMs)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * A raw query string's parameters decoded, re-encoded per RFC 3986 (unreserved `A-Z a-z 0-9 - _ . ~`
 * kept, everything else `%XX` upper-case, space as `%20`), sorted by key then value, `&`-joined.
 */
export function betaCanonicalQuery(rawQuery: string): string {
  const pairs = rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair): [string, string] => {
      const equals = pair.indexOf('=');
      const [key, value] = equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
      return [encodeRfc3986(decodeURIComponent(key)), encodeRfc3986(decodeURIComponent(value))];
    });
  pairs.sort(([keyA, valueA], [keyB, valueB]) => byCodeUnits(keyA, keyB) || byCodeUnits(valueA, valueB));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** encodeURIComponent leaves `!'()*` as they are; RFC 3986 reserves them. */
function encodeRfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function byCodeUnits(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmacSha256(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
