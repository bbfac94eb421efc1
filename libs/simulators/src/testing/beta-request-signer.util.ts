import {
  BETA_ALGORITHM,
  betaCanonicalQuery,
  betaCanonicalRequest,
  betaPayloadHash,
  betaScope,
  betaSignature,
  betaSigningKey,
  betaStringToSign,
} from '../beta/beta-signature.util';

export interface BetaSigningRequest {
  accessKey: string;
  secretKey: string;
  /** `127.0.0.1:port`, as the client will send it in `Host`. */
  host: string;
  path: string;
  rawQuery: string;
  body: string;
  now?: Date;
}

const SIGNED_HEADERS = ['content-type', 'host', 'x-content-sha256', 'x-date'];

/**
 * The headers a client of §4.2 sends, for the simulator's own specs. It composes the primitives that
 * `beta-signature.util.spec.ts` pins to a hand-computed vector.
 */
export function signedBetaHeaders(request: BetaSigningRequest): Record<string, string> {
  const xDate = (request.now ?? new Date())
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = xDate.slice(0, 8);
  const payloadHash = betaPayloadHash(request.body);
  const headers = {
    'content-type': 'application/json',
    host: request.host,
    'x-content-sha256': payloadHash,
    'x-date': xDate,
  };
  const canonicalRequest = betaCanonicalRequest({
    method: 'POST',
    path: request.path,
    canonicalQuery: betaCanonicalQuery(request.rawQuery),
    headers,
    signedHeaders: SIGNED_HEADERS,
    payloadHash,
  });
  const signature = betaSignature(
    betaSigningKey(request.secretKey, date),
    betaStringToSign(xDate, betaScope(date), canonicalRequest),
  );
  return {
    ...headers,
    authorization: `${BETA_ALGORITHM} Credential=${request.accessKey}/${betaScope(date)}, SignedHeaders=${SIGNED_HEADERS.join(';')}, Signature=${signature}`,
  };
}
