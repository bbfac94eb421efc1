import { GammaKey } from './gamma-signature.verifier';

/** A gamma channel key: `SubAppId|SecretId|SecretKey` (upstreams.md §5.1); a fourth part, the region, is allowed. */
export const DEFAULT_GAMMA_KEY = '1500000000|sim-gamma-sid|sim-gamma-skey';

const GAMMA_KEY = /^\d+\|[^|]+\|[^|]+(?:\|[^|]+)?$/;

/** Whether a key can serve the gamma wire (the form `gammaKeysOf` accepts). */
export function isGammaKey(key: string): boolean {
  return GAMMA_KEY.test(key);
}

/** The accepted keys by SecretId; the region part is accepted and ignored (it is not signed). */
export function gammaKeysOf(entries: readonly string[] = [DEFAULT_GAMMA_KEY]): ReadonlyMap<string, GammaKey> {
  const keys = new Map<string, GammaKey>();
  for (const entry of entries) {
    if (!isGammaKey(entry)) {
      throw new Error('keys.gamma: each entry must be "SubAppId|SecretId|SecretKey" (optionally "|Region")');
    }
    const [subAppId, secretId, secretKey] = entry.split('|');
    keys.set(secretId, { subAppId, secretKey });
  }
  return keys;
}

/** A key of the family's official-compatible wire: `AccessKey|SecretKey` (upstreams.md §5.8). */
export const DEFAULT_GAMMA_OFFICIAL_KEY = 'sim-gamma-ak|sim-gamma-sk';

/** The accepted official-wire keys: SecretKey by AccessKey. */
export function gammaOfficialSecretsOf(
  entries: readonly string[] = [DEFAULT_GAMMA_OFFICIAL_KEY],
): ReadonlyMap<string, string> {
  const secrets = new Map<string, string>();
  for (const entry of entries) {
    const parts = entry.split('|');
    if (parts.length !== 2 || parts.some((part) => part === '')) {
      throw new Error('keys.gammaOfficial: each entry must be "AccessKey|SecretKey"');
    }
    secrets.set(parts[0], parts[1]);
  }
  return secrets;
}
