import { createHash, createHmac } from 'node:crypto';
import { GAMMA_API_VERSION, GAMMA_CONTENT_TYPE } from './gamma-wire.constants';

/**
 * GAMMA-HMAC-SHA256 (upstreams.md §5.2), written by hand from the spec like the beta signer: a dozen
 * lines of node:crypto. Pure: the caller passes the time.
 */
export const GAMMA_SIGNING_ALGORITHM = 'GAMMA-HMAC-SHA256';

const SERVICE = 'media';
const SCOPE_TERMINATOR = 'gamma_request';
const SECRET_PREFIX = 'GAMMA';
/** Lower-case, sorted: the order the canonical headers and `SignedHeaders` list them in. */
const SIGNED_HEADERS = ['content-type', 'host', 'x-gamma-action'] as const;

export interface GammaSigningInput {
  secretId: string;
  secretKey: string;
  /** The key's fourth part, sent (unsigned) as `X-Gamma-Region` when present. */
  region?: string;
  /** `CreateAigcVideoTask` or `DescribeTaskDetail`. */
  action: string;
  /** The whole request URL (`{base}/`): its host and path are signed. */
  url: string;
  /** The exact body bytes sent. */
  body: string | Buffer;
  /** The signing time, milliseconds since the Unix epoch; the wire's timestamp is in whole seconds. */
  nowMs: number;
}

/** Every header a signed call carries (§5.1), `Authorization` included. */
export function signGammaRequest(input: GammaSigningInput): Record<string, string> {
  const url = new URL(input.url);
  const timestamp = Math.floor(input.nowMs / 1000);
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const payloadHash = sha256Hex(input.body);
  const signed: Record<(typeof SIGNED_HEADERS)[number], string> = {
    'content-type': GAMMA_CONTENT_TYPE,
    // WHATWG URLs lower-case the host and drop a default port, as §0's {host} is written.
    host: url.host,
    // The action is signed lower-cased; it is sent as written.
    'x-gamma-action': input.action,
  };
  const canonicalValue = (name: (typeof SIGNED_HEADERS)[number]): string =>
    name === 'x-gamma-action' ? signed[name].trim().toLowerCase() : signed[name].trim();
  const canonicalRequest = [
    'POST',
    url.pathname,
    // POST calls carry no query: the canonical query is empty.
    '',
    SIGNED_HEADERS.map((name) => `${name}:${canonicalValue(name)}\n`).join(''),
    SIGNED_HEADERS.join(';'),
    payloadHash,
  ].join('\n');
  const scope = `${date}/${SERVICE}/${SCOPE_TERMINATOR}`;
  const stringToSign = [GAMMA_SIGNING_ALGORITHM, String(timestamp), scope, sha256Hex(canonicalRequest)].join(
    '\n',
  );
  const signingKey = [date, SERVICE, SCOPE_TERMINATOR].reduce<string | Buffer>(
    (key, part) => hmacSha256(key, part),
    `${SECRET_PREFIX}${input.secretKey}`,
  );
  const signature = hmacSha256(signingKey, stringToSign).toString('hex');
  return {
    ...signed,
    'x-gamma-version': GAMMA_API_VERSION,
    'x-gamma-timestamp': String(timestamp),
    ...(input.region === undefined ? {} : { 'x-gamma-region': input.region }),
    authorization:
      `${GAMMA_SIGNING_ALGORITHM} Credential=${input.secretId}/${scope}, ` +
      `SignedHeaders=${SIGNED_HEADERS.join(';')}, Signature=${signature}`,
  };
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmacSha256(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
