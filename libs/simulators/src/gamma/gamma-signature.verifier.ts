import { IncomingHttpHeaders } from 'node:http';
import { authorizationFieldsOf, signaturesMatch, signedHeaderValueOf } from '../signed-authorization.util';
import {
  GAMMA_ALGORITHM,
  GAMMA_SERVICE,
  GAMMA_SCOPE_TERMINATOR,
  GAMMA_SIGNED_HEADERS,
  gammaCanonicalRequest,
  gammaDateOf,
  gammaPayloadHash,
  gammaScope,
  gammaSignature,
  gammaSigningKey,
  gammaStringToSign,
} from './gamma-signature.util';

/** A received call as the verifier needs it. */
export interface ReceivedGammaCall {
  /**
   * The paths the signature may cover: the routed path, and the path as received when a channel's
   * base URL carries a `/@…` directive prefix (a signer may sign either).
   */
  paths: readonly string[];
  headers: IncomingHttpHeaders;
  body: string;
}

/** A key the simulator accepts: its SecretKey and the SubAppId it belongs to. */
export interface GammaKey {
  subAppId: string;
  secretKey: string;
}

export type GammaVerification =
  { secretId: string; key: GammaKey } | { code: GammaAuthCode; message: string };

export type GammaAuthCode =
  'AuthFailure.SecretIdNotFound' | 'AuthFailure.SignatureExpire' | 'AuthFailure.SignatureFailure';

/** `X-Gamma-Timestamp` may differ from the simulator's clock by this much (upstreams.md §5.2). */
export const MAX_CLOCK_SKEW_SECONDS = 300;
const TIMESTAMP = /^\d{1,12}$/;

/**
 * The verifier of §5.2: an unknown SecretId is `AuthFailure.SecretIdNotFound`, a timestamp more than
 * 300 s from the simulator's clock `AuthFailure.SignatureExpire`, anything else that does not match
 * (a malformed header, another scope, a wrong signature) `AuthFailure.SignatureFailure`. The canonical
 * request is rebuilt from what was received and compared in constant time; a refusal says why, never
 * what the right signature would have been.
 */
export function verifyGammaSignature(
  call: ReceivedGammaCall,
  keys: ReadonlyMap<string, GammaKey>,
  nowMs = Date.now(),
): GammaVerification {
  const authorization = parseAuthorization(signedHeaderValueOf(call.headers, 'authorization'));
  if (!authorization) return failure('The Authorization header is missing or malformed.');
  const { secretId, scope, signedHeaders, signature } = authorization;
  const key = keys.get(secretId);
  if (key === undefined) {
    return { code: 'AuthFailure.SecretIdNotFound', message: `The SecretId ${secretId} is not found.` };
  }
  const timestamp = signedHeaderValueOf(call.headers, 'x-gamma-timestamp');
  if (timestamp === undefined || !TIMESTAMP.test(timestamp)) {
    return failure('The X-Gamma-Timestamp header is missing or malformed.');
  }
  const serverSeconds = Math.floor(nowMs / 1000);
  if (Math.abs(serverSeconds - Number(timestamp)) > MAX_CLOCK_SKEW_SECONDS) {
    return {
      code: 'AuthFailure.SignatureExpire',
      message: `Signature expired. Timestamp is ${timestamp}, server time is ${serverSeconds}.`,
    };
  }
  const date = gammaDateOf(Number(timestamp));
  if (scope !== gammaScope(date)) return failure(`The credential scope ${scope} does not match the request.`);
  if (signedHeaders !== GAMMA_SIGNED_HEADERS.join(';')) {
    return failure(`SignedHeaders must be ${GAMMA_SIGNED_HEADERS.join(';')}.`);
  }
  const headers: Record<string, string> = {};
  for (const name of GAMMA_SIGNED_HEADERS) {
    const value = signedHeaderValueOf(call.headers, name);
    if (value === undefined) return failure(`The signed header ${name} is missing.`);
    headers[name] = value;
  }
  const signingKey = gammaSigningKey(key.secretKey, date);
  const payloadHash = gammaPayloadHash(call.body);
  const matches = call.paths.some((path) => {
    const canonicalRequest = gammaCanonicalRequest({ path, headers, payloadHash });
    const expected = gammaSignature(signingKey, gammaStringToSign(timestamp, scope, canonicalRequest));
    return signaturesMatch(expected, signature);
  });
  return matches
    ? { secretId, key }
    : failure('The provided credentials could not be validated. Please check your signature is correct.');
}

function failure(message: string): GammaVerification {
  return { code: 'AuthFailure.SignatureFailure', message };
}

interface ParsedAuthorization {
  secretId: string;
  scope: string;
  signedHeaders: string;
  signature: string;
}

/** `GAMMA-HMAC-SHA256 Credential=<SecretId>/<date>/media/gamma_request, SignedHeaders=…, Signature=<hex>`. */
function parseAuthorization(header: string | undefined): ParsedAuthorization | undefined {
  const fields = authorizationFieldsOf(header, GAMMA_ALGORITHM);
  if (!fields || fields.credential.length !== 4) return undefined;
  const [secretId, date, service, terminator] = fields.credential;
  if (service !== GAMMA_SERVICE || terminator !== GAMMA_SCOPE_TERMINATOR || secretId === '') return undefined;
  const { signedHeaders, signature } = fields;
  return { secretId, scope: `${date}/${service}/${terminator}`, signedHeaders, signature };
}
