import { createHmac, timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';

/** Why a token was refused, as the §5.8 codes say it. */
export type GammaTokenRefusal =
  | { code: 1000; message: string } // authentication failed: unknown issuer, wrong signature
  | { code: 1001; message: string } // empty
  | { code: 1002; message: string } // invalid: not a HS256 JWT
  | { code: 1003; message: string } // not yet valid
  | { code: 1004; message: string }; // expired

export type GammaTokenVerification = { accessKey: string } | { refusal: GammaTokenRefusal };

const BEARER = /^Bearer\s+(\S+)$/i;
/** Three base64url parts, unpadded. */
const JWT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/**
 * The §5.8 token check: `Authorization: Bearer <JWT>` whose header is `{"alg":"HS256","typ":"JWT"}`,
 * whose `iss` is a known AccessKey and whose HS256 signature under that key's SecretKey matches
 * (compared in constant time); `nbf` must have come and `exp` not passed. Written independently of
 * the gateway's signer, from the RFC 7519 steps.
 */
export function verifyGammaToken(
  headers: IncomingHttpHeaders,
  secrets: ReadonlyMap<string, string>,
  nowMs = Date.now(),
): GammaTokenVerification {
  const header = headers['authorization'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim() ?? '';
  if (value === '') return refused(1001, 'The Authorization header is empty.');
  const token = BEARER.exec(value)?.[1];
  const parts = token === undefined ? null : JWT.exec(token);
  if (!parts) return refused(1002, 'The Authorization header is not a Bearer JWT.');
  const [, encodedHeader, encodedClaims, signature] = parts;
  const jwtHeader = decodedJson(encodedHeader);
  const claims = decodedJson(encodedClaims);
  if (jwtHeader?.['alg'] !== 'HS256' || !claims || typeof claims['iss'] !== 'string') {
    return refused(1002, 'The token is not an HS256 JWT with an iss claim.');
  }
  const secret = secrets.get(claims['iss']);
  const expected =
    secret === undefined
      ? undefined
      : createHmac('sha256', secret).update(`${encodedHeader}.${encodedClaims}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return refused(1000, 'Authentication failed: unknown access key or wrong signature.');
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  if (typeof claims['nbf'] === 'number' && nowSeconds < claims['nbf']) {
    return refused(1003, 'The token is not valid yet.');
  }
  if (typeof claims['exp'] !== 'number' || nowSeconds >= claims['exp']) {
    return refused(1004, 'The token has expired.');
  }
  return { accessKey: claims['iss'] };
}

function decodedJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function refused(code: GammaTokenRefusal['code'], message: string): GammaTokenVerification {
  return { refusal: { code, message } as GammaTokenRefusal };
}
