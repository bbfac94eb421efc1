import { createHmac } from 'node:crypto';

/** The token's lifetime and the clock skew its not-before allows (upstreams.md §5.8). */
const LIFETIME_SECONDS = 1800;
const NOT_BEFORE_SKEW_SECONDS = 5;
const HEADER = { alg: 'HS256', typ: 'JWT' } as const;

export interface GammaTokenInput {
  accessKey: string;
  secretKey: string;
  /** The signing time, milliseconds since the Unix epoch. */
  nowMs: number;
}

/**
 * The Bearer token of one call on the §5.8 wire: a JWT with header `{"alg":"HS256","typ":"JWT"}`,
 * claims `{"iss":<AccessKey>,"exp":now+1800,"nbf":now-5}` (Unix seconds), signed with HMAC-SHA256
 * under the SecretKey as is (RFC 7519 and RFC 7515: base64url parts, unpadded, joined by dots).
 * Written with node:crypto: three base64url strings and one HMAC need no library. Pure: the caller
 * passes the time.
 */
export function gammaBearerToken({ accessKey, secretKey, nowMs }: GammaTokenInput): string {
  const now = Math.floor(nowMs / 1000);
  const claims = { iss: accessKey, exp: now + LIFETIME_SECONDS, nbf: now - NOT_BEFORE_SKEW_SECONDS };
  const signingInput = `${base64UrlJson(HEADER)}.${base64UrlJson(claims)}`;
  const signature = createHmac('sha256', secretKey).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

function base64UrlJson(value: object): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}
