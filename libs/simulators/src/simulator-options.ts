export const DEFAULT_KAPPA_KEY = 'sim-kappa-key';
export const DEFAULT_COMPAT_KEY = 'sim-compat-key';
export const DEFAULT_ETA_KEY = 'sim-eta-key';
/** A beta channel key: `AccessKey|SecretKey` (upstreams.md §4.1). */
export const DEFAULT_BETA_KEY = 'sim-beta-ak|sim-beta-sk';
/** A beta relay key: Bearer on `/bt`, no signature (upstreams.md §4.1). */
export const DEFAULT_BETA_RELAY_KEY = 'sk-sim-beta-relay';

const BETA_RELAY_PREFIX = 'sk-';

export interface SimulatorOptions {
  /**
   * Accepted credentials per wire; a wire left out keeps its default key. `beta` entries are channel
   * keys as the gateway stores them: `AccessKey|SecretKey` for signed calls, or `sk-…` for the relay.
   */
  keys?: { kappa?: string[]; compat?: string[]; eta?: string[]; beta?: string[] };
  /** Fastify request logging (off by default: the simulator is also the benchmark's direct baseline). */
  logger?: boolean;
}

export interface StartSimulatorOptions extends SimulatorOptions {
  /** Defaults to 0 (any free port). */
  port?: number;
  /** Defaults to 127.0.0.1. */
  host?: string;
}

/** Options resolved once at creation, in the shape the routes read per request. */
export interface SimulatorSettings {
  kappaKeys: ReadonlySet<string>;
  compatKeys: ReadonlySet<string>;
  etaKeys: ReadonlySet<string>;
  /** SecretKey by AccessKey. */
  betaSecrets: ReadonlyMap<string, string>;
  betaRelayKeys: ReadonlySet<string>;
}

export function resolveSimulatorSettings(options: SimulatorOptions): SimulatorSettings {
  const betaSecrets = new Map<string, string>();
  const betaRelayKeys = new Set<string>();
  for (const key of options.keys?.beta ?? [DEFAULT_BETA_KEY, DEFAULT_BETA_RELAY_KEY]) {
    if (!isBetaKey(key)) {
      throw new Error('keys.beta: each entry must be "AccessKey|SecretKey" or a relay key starting "sk-"');
    }
    if (key.startsWith(BETA_RELAY_PREFIX)) betaRelayKeys.add(key);
    else {
      const [accessKey, secretKey] = key.split('|');
      betaSecrets.set(accessKey, secretKey);
    }
  }
  return {
    kappaKeys: new Set(options.keys?.kappa ?? [DEFAULT_KAPPA_KEY]),
    compatKeys: new Set(options.keys?.compat ?? [DEFAULT_COMPAT_KEY]),
    etaKeys: new Set(options.keys?.eta ?? [DEFAULT_ETA_KEY]),
    betaSecrets,
    betaRelayKeys,
  };
}

/** Whether a key can serve the beta wire (the form `resolveSimulatorSettings` accepts). */
export function isBetaKey(key: string): boolean {
  return key.startsWith(BETA_RELAY_PREFIX) || /^[^|]+\|[^|]+$/.test(key);
}
