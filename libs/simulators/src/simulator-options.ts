import { VIDEO_RESULT_PLACEMENTS, VideoResultPlacement } from './directives';
import { gammaKeysOf, gammaOfficialSecretsOf } from './gamma/gamma-keys';
import { GammaKey } from './gamma/gamma-signature.verifier';

export const DEFAULT_KAPPA_KEY = 'sim-kappa-key';
export const DEFAULT_COMPAT_KEY = 'sim-compat-key';
export const DEFAULT_ETA_KEY = 'sim-eta-key';
export const DEFAULT_MU_KEY = 'sim-mu-key';
export const DEFAULT_OMEGA_KEY = 'sim-omega-key';
export const DEFAULT_ALPHA_KEY = 'sim-alpha-key';
export const DEFAULT_LAMBDA_KEY = 'sim-lambda-key';
/** A beta channel key: `AccessKey|SecretKey` (upstreams.md §4.1). */
export const DEFAULT_BETA_KEY = 'sim-beta-ak|sim-beta-sk';
/** The eta asset control plane's key: `AccessKey|SecretKey` (upstreams.md §6.5). */
export const DEFAULT_ETA_CONTROL_KEY = 'sim-eta-ak|sim-eta-sk';
/** A beta relay key: Bearer on `/bt`, no signature (upstreams.md §4.1). */
export const DEFAULT_BETA_RELAY_KEY = 'sk-sim-beta-relay';

const BETA_RELAY_PREFIX = 'sk-';

export interface SimulatorOptions {
  /**
   * Accepted credentials per wire; a wire left out keeps its default key. `beta` entries are channel
   * keys as the gateway stores them: `AccessKey|SecretKey` for signed calls, or `sk-…` for the relay.
   */
  keys?: {
    kappa?: string[];
    compat?: string[];
    eta?: string[];
    beta?: string[];
    mu?: string[];
    omega?: string[];
    alpha?: string[];
    lambda?: string[];
    /** `SubAppId|SecretId|SecretKey[|Region]` (upstreams.md §5.1). */
    gamma?: string[];
    /** `AccessKey|SecretKey` of the gamma official-compatible wire (upstreams.md §5.8). */
    gammaOfficial?: string[];
    /** The eta asset control plane's `AccessKey|SecretKey` pairs (upstreams.md §6.5). */
    etaControl?: string[];
  };
  /** Fastify request logging (off by default: the simulator is also the benchmark's direct baseline). */
  logger?: boolean;
  /**
   * Where completed compat videos carry their result URL (upstreams.md §2.4): `content-only` (the
   * default, the first-party upstream), `video_url`, `url`, `output.url` or `metadata.url`. The
   * `placement=` directive overrides it per video or per retrieve.
   */
  videoPlacement?: VideoResultPlacement;
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
  muKeys: ReadonlySet<string>;
  omegaKeys: ReadonlySet<string>;
  alphaKeys: ReadonlySet<string>;
  lambdaKeys: ReadonlySet<string>;
  /** SecretKey by AccessKey. */
  betaSecrets: ReadonlyMap<string, string>;
  betaRelayKeys: ReadonlySet<string>;
  /** SubAppId and SecretKey by SecretId. */
  gammaKeys: ReadonlyMap<string, GammaKey>;
  /** The gamma official wire's SecretKey by AccessKey. */
  gammaOfficialSecrets: ReadonlyMap<string, string>;
  /** The eta control plane's SecretKey by AccessKey. */
  etaControlSecrets: ReadonlyMap<string, string>;
  videoPlacement: VideoResultPlacement;
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
    muKeys: new Set(options.keys?.mu ?? [DEFAULT_MU_KEY]),
    omegaKeys: new Set(options.keys?.omega ?? [DEFAULT_OMEGA_KEY]),
    alphaKeys: new Set(options.keys?.alpha ?? [DEFAULT_ALPHA_KEY]),
    lambdaKeys: new Set(options.keys?.lambda ?? [DEFAULT_LAMBDA_KEY]),
    betaSecrets,
    betaRelayKeys,
    gammaKeys: gammaKeysOf(options.keys?.gamma),
    gammaOfficialSecrets: gammaOfficialSecretsOf(options.keys?.gammaOfficial),
    etaControlSecrets: etaControlSecretsOf(options.keys?.etaControl ?? [DEFAULT_ETA_CONTROL_KEY]),
    videoPlacement: videoPlacementOf(options.videoPlacement),
  };
}

function etaControlSecretsOf(keys: readonly string[]): ReadonlyMap<string, string> {
  const secrets = new Map<string, string>();
  for (const key of keys) {
    const parts = key.split('|');
    if (parts.length !== 2 || parts.some((part) => part === '')) {
      throw new Error('keys.etaControl: each entry must be "AccessKey|SecretKey"');
    }
    secrets.set(parts[0], parts[1]);
  }
  return secrets;
}

function videoPlacementOf(placement: VideoResultPlacement | undefined): VideoResultPlacement {
  if (placement === undefined) return 'content-only';
  if (!VIDEO_RESULT_PLACEMENTS.includes(placement)) {
    throw new Error(`videoPlacement: must be one of ${VIDEO_RESULT_PLACEMENTS.join(', ')}`);
  }
  return placement;
}

/** Whether a key can serve the beta wire (the form `resolveSimulatorSettings` accepts). */
export function isBetaKey(key: string): boolean {
  return key.startsWith(BETA_RELAY_PREFIX) || /^[^|]+\|[^|]+$/.test(key);
}
