import { IncomingHttpHeaders } from 'node:http';
import { pathOfUrl, rawQueryOfUrl } from '../request-url.util';
import { authorizationFieldsOf, signaturesMatch, signedHeaderValueOf } from '../signed-authorization.util';
import { SimulatedCall } from '../simulated-route';
import {
  BETA_ALGORITHM,
  BETA_REGION,
  BETA_SERVICE,
  betaCanonicalQuery,
  betaCanonicalRequest,
  betaPayloadHash,
  betaScope,
  betaSignature,
  betaSigningKey,
  betaStringToSign,
} from './beta-signature.util';

/** A received call as the verifier needs it. */
export interface ReceivedBetaCall {
  method: string;
  /**
   * The paths the signature may cover: the routed path, and the path as received when a channel's
   * base URL carries a `/@…` directive prefix (a signer may sign either).
   */
  paths: readonly string[];
  rawQuery: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A simulated call as the verifier reads it, with both paths a signature may cover. */
export function receivedBetaCallOf(call: SimulatedCall): ReceivedBetaCall {
  const { request } = call;
  return {
    method: request.method,
    paths: [...new Set([pathOfUrl(request.url), pathOfUrl(request.originalUrl)])],
    rawQuery: rawQueryOfUrl(request.url),
    headers: request.headers,
    body: call.rawBody,
  };
}

export type BetaVerification = { accessKey: string } | { refusal: string };

/** The credential scope a wire signs in: beta's own (§4.1), or the eta asset control plane's (§6.5). */
export interface BetaSigningScope {
  region: string;
  service: string;
}

const BETA_SCOPE: BetaSigningScope = { region: BETA_REGION, service: BETA_SERVICE };

/** `X-Date` may differ from the simulator's clock by this much (upstreams.md §4.2‡). */
export const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const X_DATE_PATTERN = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const REQUIRED_SIGNED_HEADERS = ['host', 'x-content-sha256', 'x-date'];

/**
 * The verifier of §4.2: parse `Authorization`, look up the secret by access key, check the body hash
 * and the clock, rebuild the canonical request from what was received and compare in constant time.
 * Each refusal says why (the 401's message), never what the right signature would have been.
 */
export function verifyBetaSignature(
  call: ReceivedBetaCall,
  secrets: ReadonlyMap<string, string>,
  nowMs = Date.now(),
  expectedScope: BetaSigningScope = BETA_SCOPE,
): BetaVerification {
  const authorization = parseAuthorization(signedHeaderValueOf(call.headers, 'authorization'));
  if (!authorization) return { refusal: 'The Authorization header is missing or malformed.' };
  const { accessKey, scopeParts, signedHeaders, signature } = authorization;
  const secretKey = secrets.get(accessKey);
  if (secretKey === undefined) return { refusal: `The access key ${accessKey} does not exist.` };

  const xDate = signedHeaderValueOf(call.headers, 'x-date');
  const signedAtMs = xDate === undefined ? undefined : parseXDate(xDate);
  if (xDate === undefined || signedAtMs === undefined)
    return { refusal: 'The X-Date header is missing or malformed.' };
  if (Math.abs(nowMs - signedAtMs) > MAX_CLOCK_SKEW_MS) {
    return { refusal: 'The request time differs from the server time by more than 15 minutes.' };
  }
  const [date, region, service, terminator] = scopeParts;
  if (
    date !== xDate.slice(0, 8) ||
    region !== expectedScope.region ||
    service !== expectedScope.service ||
    terminator !== 'request'
  ) {
    return { refusal: `The credential scope ${scopeParts.join('/')} does not match the request.` };
  }
  const payloadHash = betaPayloadHash(call.body);
  if (signedHeaderValueOf(call.headers, 'x-content-sha256') !== payloadHash) {
    return { refusal: 'The X-Content-Sha256 header does not match the request body.' };
  }
  if (REQUIRED_SIGNED_HEADERS.some((name) => !signedHeaders.includes(name))) {
    return { refusal: `SignedHeaders must include ${REQUIRED_SIGNED_HEADERS.join(';')}.` };
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = signedHeaderValueOf(call.headers, name);
    if (value === undefined) return { refusal: `The signed header ${name} is missing.` };
    headers[name] = value;
  }
  const signingKey = betaSigningKey(secretKey, date, region, service);
  const canonicalQuery = betaCanonicalQuery(call.rawQuery);
  const matches = call.paths.some((path) => {
    const canonicalRequest = betaCanonicalRequest({
      method: call.method,
      path,
      canonicalQuery,
      headers,
      signedHeaders,
      payloadHash,
    });
    const scope = betaScope(date, region, service);
    const expected = betaSignature(signingKey, betaStringToSign(xDate, scope, canonicalRequest));
    return signaturesMatch(expected, signature);
  });
  return matches
    ? { accessKey }
    : { refusal: 'The request signature we calculated does not match the signature you provided.' };
}

interface ParsedAuthorization {
  accessKey: string;
  scopeParts: string[];
  signedHeaders: string[];
  signature: string;
}

/** `HMAC-SHA256 Credential=<AK>/<date>/<region>/<service>/request, SignedHeaders=a;b, Signature=<hex>`. */
function parseAuthorization(header: string | undefined): ParsedAuthorization | undefined {
  const fields = authorizationFieldsOf(header, BETA_ALGORITHM);
  if (!fields || fields.credential.length !== 5) return undefined;
  const [accessKey, ...scopeParts] = fields.credential;
  return {
    accessKey,
    scopeParts,
    signedHeaders: fields.signedHeaders.split(';'),
    signature: fields.signature,
  };
}

function parseXDate(xDate: string): number | undefined {
  const match = X_DATE_PATTERN.exec(xDate);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  return Number.isNaN(time) ? undefined : time;
}
