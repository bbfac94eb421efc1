import { SimulatorOptions, isBetaKey, isGammaKey } from '@gateway/simulators';

export interface SimEnvironment {
  port: number;
  host: string;
  keys: SimulatorOptions['keys'];
  logger: boolean;
}

const DEFAULT_PORT = 4010;
const DEFAULT_HOST = '127.0.0.1';
const WIRES = ['kappa', 'compat', 'eta', 'beta', 'mu', 'omega', 'alpha', 'gamma', 'lambda'] as const;
type Wire = (typeof WIRES)[number];

/**
 * Reads PORT, HOST, SIM_KEYS and SIM_LOG; throws with a clear message on a malformed value so the
 * process fails at boot rather than serving with a surprise configuration.
 */
export function readSimEnvironment(env: NodeJS.ProcessEnv): SimEnvironment {
  return {
    port: portOf(env['PORT']),
    host: env['HOST'] || DEFAULT_HOST,
    keys: env['SIM_KEYS'] ? parseSimKeys(env['SIM_KEYS']) : undefined,
    logger: env['SIM_LOG'] === '1' || env['SIM_LOG'] === 'true',
  };
}

/**
 * SIM_KEYS lists accepted keys as `wire:key` entries separated by commas
 * (`kappa:k1,kappa:k2,compat:c1,beta:AK|SK,beta:sk-relay`); an entry without a wire is accepted on
 * every wire whose key form it fits (beta keys are `AccessKey|SecretKey` or `sk-…`). A JSON object
 * (`{"kappa":["k1"],"compat":["c1"]}`) works too. A wire left out keeps its default key.
 */
export function parseSimKeys(value: string): SimulatorOptions['keys'] {
  if (value.trim().startsWith('{')) return parseJsonKeys(value);
  const keys = emptyKeys();
  for (const entry of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const separator = entry.indexOf(':');
    const wire = separator > 0 ? entry.slice(0, separator) : undefined;
    if (wire !== undefined && isWire(wire)) {
      const key = entry.slice(separator + 1).trim();
      if (key) keys[wire].push(key);
    } else {
      for (const every of WIRES) if (fitsWire(every, entry)) keys[every].push(entry);
    }
  }
  return withoutEmptyWires(keys);
}

function parseJsonKeys(value: string): SimulatorOptions['keys'] {
  const parsed: unknown = JSON.parse(value);
  const keys = emptyKeys();
  if (typeof parsed !== 'object' || parsed === null) throw new Error('SIM_KEYS: expected a JSON object');
  for (const wire of WIRES) {
    const listed: unknown = (parsed as Record<string, unknown>)[wire];
    if (listed === undefined) continue;
    if (!Array.isArray(listed) || !listed.every((key) => typeof key === 'string')) {
      throw new Error(`SIM_KEYS: "${wire}" must be an array of strings`);
    }
    keys[wire] = listed;
  }
  return withoutEmptyWires(keys);
}

function emptyKeys(): Record<Wire, string[]> {
  return { kappa: [], compat: [], eta: [], beta: [], mu: [], omega: [], alpha: [], gamma: [], lambda: [] };
}

function withoutEmptyWires(keys: Record<Wire, string[]>): SimulatorOptions['keys'] {
  return {
    kappa: keys.kappa.length > 0 ? keys.kappa : undefined,
    compat: keys.compat.length > 0 ? keys.compat : undefined,
    eta: keys.eta.length > 0 ? keys.eta : undefined,
    beta: keys.beta.length > 0 ? keys.beta : undefined,
    mu: keys.mu.length > 0 ? keys.mu : undefined,
    omega: keys.omega.length > 0 ? keys.omega : undefined,
    alpha: keys.alpha.length > 0 ? keys.alpha : undefined,
    gamma: keys.gamma.length > 0 ? keys.gamma : undefined,
    lambda: keys.lambda.length > 0 ? keys.lambda : undefined,
  };
}

/** beta and gamma keys have forms of their own; any other wire takes any key. */
function fitsWire(wire: Wire, key: string): boolean {
  if (wire === 'beta') return isBetaKey(key);
  return wire !== 'gamma' || isGammaKey(key);
}

function isWire(value: string): value is Wire {
  return (WIRES as readonly string[]).includes(value);
}

function portOf(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT: not a port number: ${value}`);
  return port;
}
