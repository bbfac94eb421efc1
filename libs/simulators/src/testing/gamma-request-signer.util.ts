import {
  GAMMA_ALGORITHM,
  GAMMA_SIGNED_HEADERS,
  gammaCanonicalRequest,
  gammaDateOf,
  gammaPayloadHash,
  gammaScope,
  gammaSignature,
  gammaSigningKey,
  gammaStringToSign,
} from '../gamma/gamma-signature.util';

export interface GammaSigningRequest {
  secretId: string;
  secretKey: string;
  /** `127.0.0.1:port`, as the client will send it in `Host`. */
  host: string;
  action: string;
  body: string;
  path?: string;
  region?: string;
  now?: Date;
}

/**
 * The headers a client of §5.1 sends, for the simulator's own specs. It composes the primitives that
 * `gamma-signature.util.spec.ts` pins to a hand-computed vector.
 */
export function signedGammaHeaders(request: GammaSigningRequest): Record<string, string> {
  const timestamp = String(Math.floor((request.now ?? new Date()).getTime() / 1000));
  const date = gammaDateOf(Number(timestamp));
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    host: request.host,
    'x-gamma-action': request.action,
  };
  const canonicalRequest = gammaCanonicalRequest({
    path: request.path ?? '/',
    headers,
    payloadHash: gammaPayloadHash(request.body),
  });
  const signature = gammaSignature(
    gammaSigningKey(request.secretKey, date),
    gammaStringToSign(timestamp, gammaScope(date), canonicalRequest),
  );
  return {
    ...headers,
    'x-gamma-version': '2018-07-17',
    'x-gamma-timestamp': timestamp,
    ...(request.region === undefined ? {} : { 'x-gamma-region': request.region }),
    authorization: `${GAMMA_ALGORITHM} Credential=${request.secretId}/${gammaScope(date)}, SignedHeaders=${GAMMA_SIGNED_HEADERS.join(';')}, Signature=${signature}`,
  };
}
