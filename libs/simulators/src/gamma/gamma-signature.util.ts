import { createHash, createHmac } from 'node:crypto';

/**
 * The GAMMA-HMAC-SHA256 signing scheme of upstreams.md §5.2, written here from the spec text (the
 * simulators depend on no project library, so the gateway's signer and this one check each other).
 */
export const GAMMA_ALGORITHM = 'GAMMA-HMAC-SHA256';
export const GAMMA_SERVICE = 'media';
export const GAMMA_SCOPE_TERMINATOR = 'gamma_request';
/** What a signature must cover, lower-case and sorted. */
export const GAMMA_SIGNED_HEADERS = ['content-type', 'host', 'x-gamma-action'] as const;

/** Lower-case hex SHA-256 of the exact body bytes. */
export function gammaPayloadHash(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/** `YYYY-MM-DD`, the UTC date of a Unix timestamp in seconds. */
export function gammaDateOf(timestampSeconds: number): string {
  return new Date(timestampSeconds * 1000).toISOString().slice(0, 10);
}

export interface GammaCanonicalRequestInput {
  path: string;
  /** The signed headers' values by lower-case name, as received. */
  headers: Record<string, string>;
  payloadHash: string;
}

/**
 * Six parts joined by `\n`: method, path, the empty canonical query of a POST, the headers (each
 * `name:value\n`, the action lower-cased), their names, the payload hash.
 */
export function gammaCanonicalRequest(input: GammaCanonicalRequestInput): string {
  const canonicalHeaders = GAMMA_SIGNED_HEADERS.map((name) => {
    const value = (input.headers[name] ?? '').trim();
    return `${name}:${name === 'x-gamma-action' ? value.toLowerCase() : value}\n`;
  }).join('');
  return ['POST', input.path, '', canonicalHeaders, GAMMA_SIGNED_HEADERS.join(';'), input.payloadHash].join(
    '\n',
  );
}

/** `<date>/media/gamma_request`. */
export function gammaScope(date: string): string {
  return `${date}/${GAMMA_SERVICE}/${GAMMA_SCOPE_TERMINATOR}`;
}

/** Four lines, no trailing newline. */
export function gammaStringToSign(timestamp: string, scope: string, canonicalRequest: string): string {
  return [GAMMA_ALGORITHM, timestamp, scope, gammaPayloadHash(canonicalRequest)].join('\n');
}

/** kDate = HMAC("GAMMA" + SecretKey, date) → kService → kSigning, raw HMAC outputs. */
export function gammaSigningKey(secretKey: string, date: string): Buffer {
  const dateKey = hmac(`GAMMA${secretKey}`, date);
  const serviceKey = hmac(dateKey, GAMMA_SERVICE);
  return hmac(serviceKey, GAMMA_SCOPE_TERMINATOR);
}

export function gammaSignature(signingKey: Buffer, stringToSign: string): string {
  return createHmac('sha256', signingKey).update(stringToSign).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
