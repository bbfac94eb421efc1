import { isIP } from 'node:net';
import type { EnvironmentReader } from './environment-reader';
import type { ClientConnectionLimits } from './gateway-config';

const TRUST_WORDS = new Set(['true', 'yes', 'on']);
const DISTRUST_WORDS = new Set(['false', 'no', 'off', '0']);
/** The named ranges Fastify's trustProxy (proxy-addr) understands. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS, MAX_CONNECTIONS and TRUST_PROXY. Node refuses a headers
 * timeout longer than the request timeout, so that is reported here, at boot, with the names.
 */
export function parseClientConnections(reader: EnvironmentReader): ClientConnectionLimits {
  const requestTimeoutMs = reader.integer('REQUEST_TIMEOUT_MS', 60_000, { min: 100 });
  const headersTimeoutMs = reader.integer('HEADERS_TIMEOUT_MS', Math.min(10_000, requestTimeoutMs), {
    min: 100,
  });
  if (headersTimeoutMs > requestTimeoutMs) {
    reader.addProblem(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    maxConnections: reader.integer('MAX_CONNECTIONS', 10_000, { min: 1 }),
    trustProxy: readTrustProxy(reader),
  };
}

/** `false` (default), `true`, a hop count, or a comma list of addresses, CIDR ranges and named ranges. */
function readTrustProxy(reader: EnvironmentReader): ClientConnectionLimits['trustProxy'] {
  const value = reader.raw('TRUST_PROXY')?.toLowerCase();
  if (value === undefined || DISTRUST_WORDS.has(value)) return false;
  if (TRUST_WORDS.has(value)) return true;
  if (/^\d+$/.test(value)) return reader.integer('TRUST_PROXY', 0, { min: 0, max: 100 });
  const entries = reader.list('TRUST_PROXY').map((entry) => entry.toLowerCase());
  for (const entry of entries) {
    if (!NAMED_RANGES.has(entry) && !isAddressOrRange(entry)) {
      reader.addProblem(
        `TRUST_PROXY entry "${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`,
      );
    }
  }
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefixLength, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefixLength === undefined) return true;
  const bits = /^\d{1,3}$/.test(prefixLength) ? Number(prefixLength) : Number.NaN;
  return bits <= (family === 4 ? 32 : 128);
}
