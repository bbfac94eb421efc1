import type { GatewayConfig } from '@gateway/config';
import { encryptSecret } from '@gateway/routing';

/** The three secret columns of a channel row, sealed under the current master key. */
export interface SealedSecretColumns {
  secretCiphertext: string;
  secretKeyVersion: number;
  secretTail: string;
}

/** Encrypts a channel secret for storage; the plaintext goes no further than this call. */
export function toSealedSecretColumns(
  secret: string,
  config: Pick<GatewayConfig, 'masterKeys'>,
): SealedSecretColumns {
  const { currentKey, currentVersion } = config.masterKeys;
  const sealed = encryptSecret(secret, { key: currentKey, version: currentVersion });
  return { secretCiphertext: sealed.ciphertext, secretKeyVersion: sealed.version, secretTail: sealed.tail };
}
