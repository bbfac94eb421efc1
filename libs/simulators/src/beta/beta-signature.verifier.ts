import { timingSafeEqual } from 'node:crypto';
import { IncomingHttpHeaders } from 'node:http';
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

export type BetaVerification = { accessKey: string } | { refusal: string };

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
): BetaVerification {
  const authorization = parseAuthorization(headerOf(call.headers, 'authorization'));
  if (!authorization) return { refusal: 'The Authorization header is missing or malformed.' };
  const { accessKey, scopeParts, signedHeaders, signature } = authorization;
  const secretKey = secrets.get(accessKey);
  if (secretKey === undefined) return { refusal: `The access key ${accessKey} does not exist.` };

  const xDate = headerOf(call.headers, 'x-date');
  const signedAtMs = xDate === undefined ? undefined : parseXDate(xDate);
  if (xDate === undefined || signedAtMs === undefined)
    return { refusal: 'The X-Date header is missing or malformed.' };
  if (Math.abs(nowMs - signedAtMs) > MAX_CLOCK_SKEW_MS) {
    return { refusal: 'The request time differs from the server time by more than 15 minutes.' };
  }
  const [date, region, service, terminator] = scopeParts;
  if (
    date !== xDate.slice(0, 8) ||
    region !== BETA_REGION ||
    service !== BETA_SERVICE ||
    terminator !== 'request'
  ) {
    return { refusal: `The credential scope ${scopeParts.join('/')} does not match the request.` };
  }
  const payloadHash = betaPayloadHash(call.body);
  if (headerOf(call.headers, 'x-content-sha256') !== payloadHash) {
    return { refusal: 'The X-Content-Sha256 header does not match the request body.' };
  }
  if (REQUIRED_SIGNED_HEADERS.some((name) => !signedHeaders.includes(name))) {
    return { refusal: `SignedHeaders must include ${REQUIRED_SIGNED_HEADERS.join(';')}.` };
  }
  const headers: Record<string, string> = {};
  for (const name of signedHeaders) {
    const value = headerOf(call.headers, name);
    if (value === undefined) return { refusal: `The signed header ${name} is missing.` };
    headers[name] = value;
  }
  const signingKey = betaSigningKey(secretKey, date);
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
    const expected = betaSignature(signingKey, betaStringToSign(xDate, betaScope(date), canonicalRequest));
    return constantTimeEqual(expected, signature);
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

/** `HMAC-SHA256 Credential=<AK>/<scope>, SignedHeaders=a;b, Signature=<hex>`. */
function parseAuthorization(header: string | undefined): ParsedAuthorization | undefined {
  if (!header?.startsWith(`${BETA_ALGORITHM} `)) return undefined;
  const fields = new Map<string, string>();
  for (const part of header.slice(BETA_ALGORITHM.length + 1).split(',')) {
    const separator = part.indexOf('=');
    if (separator > 0) fields.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim());
  }
  const credential = fields.get('Credential')?.split('/');
  const signedHeaders = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (!credential || credential.length !== 5 || !signedHeaders || !signature) return undefined;
  const [accessKey, ...scopeParts] = credential;
  return { accessKey, scopeParts, signedHeaders: signedHeaders.split(';'), signature };
}

function parseXDate(xDate: string): number | undefined {
  const match = X_DATE_PATTERN.exec(xDate);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match.map(Number);
  const time = Date.UTC(year, month - 1, day, hour, minute, second);
  return Number.isNaN(time) ? undefined : time;
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function constantTimeEqual(expected: string, received: string): boolean {
  const expectedBytes = Buffer.from(expected);
  const receivedBytes = Buffer.from(received);
  return expectedBytes.length === receivedBytes.length && timingSafeEqual(expectedBytes, receivedBytes);
}
