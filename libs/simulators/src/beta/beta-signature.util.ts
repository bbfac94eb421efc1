import { createHash, createHmac } from 'node:crypto';

/**
 * The BETA-HMAC-SHA256 signing scheme of upstreams.md §4.2, written here from the spec text (the
 * simulators depend on no project library, so the gateway's signer and this one check each other).
 */
export const BETA_ALGORITHM = 'HMAC-SHA256';
export const BETA_REGION = 'cn-north-1';
export const BETA_SERVICE = 'cv';
const SCOPE_TERMINATOR = 'request';

/** Lower-case hex SHA-256 of the exact body bytes (of the empty string for an empty body). */
export function betaPayloadHash(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * Every parameter of a raw query string decoded, re-encoded per RFC 3986 (unreserved characters
 * kept, everything else `%XX` upper-case, space as `%20`), sorted by key then value, joined with `&`.
 */
export function betaCanonicalQuery(rawQuery: string): string {
  const pairs = rawQuery
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const separator = pair.indexOf('=');
      const key = separator < 0 ? pair : pair.slice(0, separator);
      const value = separator < 0 ? '' : pair.slice(separator + 1);
      return [rfc3986(decodeLeniently(key)), rfc3986(decodeLeniently(value))] as const;
    });
  pairs.sort(([keyA, valueA], [keyB, valueB]) => compare(keyA, keyB) || compare(valueA, valueB));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

export interface BetaCanonicalRequestInput {
  method: string;
  path: string;
  canonicalQuery: string;
  /** Header values by lower-case name; only the signed ones are read. */
  headers: Record<string, string>;
  /** Lower-case names, sorted, as they appear in `SignedHeaders`. */
  signedHeaders: readonly string[];
  payloadHash: string;
}

/** Six parts joined by `\n`; the headers part ends with its own `\n`, leaving an empty line. */
export function betaCanonicalRequest(input: BetaCanonicalRequestInput): string {
  const canonicalHeaders = input.signedHeaders
    .map((name) => `${name}:${(input.headers[name] ?? '').trim()}\n`)
    .join('');
  return [
    input.method,
    input.path,
    input.canonicalQuery,
    canonicalHeaders,
    input.signedHeaders.join(';'),
    input.payloadHash,
  ].join('\n');
}

/** `<date>/<region>/<service>/request`. */
export function betaScope(date: string, region = BETA_REGION, service = BETA_SERVICE): string {
  return `${date}/${region}/${service}/${SCOPE_TERMINATOR}`;
}

/** Four lines, no trailing newline. */
export function betaStringToSign(xDate: string, scope: string, canonicalRequest: string): string {
  return [BETA_ALGORITHM, xDate, scope, betaPayloadHash(canonicalRequest)].join('\n');
}

/** kDate → kRegion → kService → kSigning, raw HMAC outputs; the secret is used as is. */
export function betaSigningKey(
  secretKey: string,
  date: string,
  region = BETA_REGION,
  service = BETA_SERVICE,
): Buffer {
  const dateKey = hmac(secretKey, date);
  const regionKey = hmac(dateKey, region);
  const serviceKey = hmac(regionKey, service);
  return hmac(serviceKey, SCOPE_TERMINATOR);
}

export function betaSignature(signingKey: Buffer, stringToSign: string): string {
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function decodeLeniently(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function compare(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
