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
import { HttpResult, postJson } from './simulator-client.util';

export interface BetaSigningRequest {
  accessKey: string;
  secretKey: string;
  /** `127.0.0.1:port`, as the client will send it in `Host`. */
  host: string;
  path: string;
  rawQuery: string;
  body: string;
  now?: Date;
  /** The credential scope; beta's own (`cn-north-1`, `cv`) when absent. */
  scope?: { region: string; service: string };
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
  const { region, service } = request.scope ?? {};
  const scope = betaScope(date, region, service);
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
    betaSigningKey(request.secretKey, date, region, service),
    betaStringToSign(xDate, scope, canonicalRequest),
  );
  return {
    ...headers,
    authorization: `${BETA_ALGORITHM} Credential=${request.accessKey}/${scope}, SignedHeaders=${SIGNED_HEADERS.join(';')}, Signature=${signature}`,
  };
}

/** What a signed call sends besides what is signed. */
export interface SignedBetaPostOptions {
  /** Sent instead of the signed body, to tamper with it. */
  sentBody?: string;
  /** Scripts the simulator, as the `x-sim` header. */
  directives?: string;
}

/**
 * Posts a call signed for the simulator at `simulatorUrl`, to `{path}?{rawQuery}`: the host signed is
 * the simulator's, and fetch sends it itself.
 */
export function postSignedBetaCall(
  simulatorUrl: string,
  request: Omit<BetaSigningRequest, 'host'>,
  options: SignedBetaPostOptions = {},
): Promise<HttpResult> {
  const headers = signedBetaHeaders({ ...request, host: new URL(simulatorUrl).host });
  delete headers['host'];
  return postJson(`${simulatorUrl}${request.path}?${request.rawQuery}`, options.sentBody ?? request.body, {
    ...headers,
    ...(options.directives ? { 'x-sim': options.directives } : {}),
  });
}
