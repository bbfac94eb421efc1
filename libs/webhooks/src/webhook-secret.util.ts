import { randomBytes } from 'node:crypto';
import type { MasterKeyring } from '@gateway/config';
import { decryptSecret, encryptSecret } from '@gateway/routing';

/** Standard Webhooks' secret form: `whsec_` and the base64 of the key bytes (24 to 64 of them). */
const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** How long a rotated-out secret keeps signing beside the new one, so receivers can switch over. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;

export interface SealedWebhookSecret {
  ciphertext: string;
  keyVersion: number;
}

/** A new signing secret, shown to the operator once. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** Encrypted under the current master key, as channel secrets are (AES-256-GCM, versioned). */
export function sealWebhookSecret(secret: string, keys: MasterKeyring): SealedWebhookSecret {
  const sealed = encryptSecret(secret, { key: keys.currentKey, version: keys.currentVersion });
  return { ciphertext: sealed.ciphertext, keyVersion: sealed.version };
}

/** Throws SecretDecryptionError when no master key of the keyring opens it. */
export function openWebhookSecret(sealed: SealedWebhookSecret, keys: MasterKeyring): string {
  return decryptSecret(sealed.ciphertext, sealed.keyVersion, keys.keys);
}
