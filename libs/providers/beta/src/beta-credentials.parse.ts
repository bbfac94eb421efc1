import { parseAccessKeyPair, parsePlainKey, type CredentialsParse } from '@gateway/providers-core';

/**
 * A beta channel's key (upstreams.md §4.1): an `AccessKey|SecretKey` pair that signs every call, or a
 * relay key starting `sk-` (another gateway speaking this wire) sent as a Bearer token, unsigned.
 */
export type BetaCredentials =
  { kind: 'signed'; accessKey: string; secretKey: string } | { kind: 'relay'; apiKey: string };

export const BETA_KEY_FORM = 'AccessKey|SecretKey, or a relay key starting "sk-"';
const RELAY_KEY_PREFIX = 'sk-';

export function parseBetaCredentials(secret: string): CredentialsParse<BetaCredentials> {
  if (secret.startsWith(RELAY_KEY_PREFIX)) {
    const relay = parsePlainKey(secret);
    return relay.ok
      ? { ok: true, credentials: { kind: 'relay', apiKey: relay.credentials.apiKey } }
      : { ok: false, expected: BETA_KEY_FORM };
  }
  const pair = parseAccessKeyPair(secret);
  return pair.ok
    ? { ok: true, credentials: { kind: 'signed', ...pair.credentials } }
    : { ok: false, expected: BETA_KEY_FORM };
}
