import {
  isJsonObject,
  secretSettingsOf,
  type ChannelSettingsSchema,
  type JsonObject,
} from '@gateway/providers-core';
import { SecretDecryptionError, decryptSecret, encryptSecret, type MasterKey } from './channel-secret.cipher';

/**
 * A secret setting as the `settings` column stores it, in place of its value: sealed by the channel
 * secret's cipher under a versioned master key, with the tail the admin view shows.
 */
export interface SealedSetting {
  $encrypted: string;
  keyVersion: number;
  tail: string;
}

export function isSealedSetting(value: unknown): value is SealedSetting {
  return (
    isJsonObject(value) &&
    typeof value.$encrypted === 'string' &&
    Number.isInteger(value.keyVersion) &&
    typeof value.tail === 'string'
  );
}

/** The settings with each secret setting of the schema sealed under the master key; the others as given. */
export function sealSecretSettings(
  schema: ChannelSettingsSchema<unknown>,
  settings: JsonObject,
  masterKey: MasterKey,
): JsonObject {
  const sealed = { ...settings };
  for (const field of secretSettingsOf(schema)) {
    const value = sealed[field];
    // A secret setting is a string; the schema refused anything else before a write got here.
    if (typeof value !== 'string') continue;
    const { ciphertext, version, tail } = encryptSecret(value, masterKey);
    sealed[field] = { $encrypted: ciphertext, keyVersion: version, tail } satisfies SealedSetting;
  }
  return sealed;
}

/**
 * The stored settings with each secret setting decrypted, for the type's settings parser. A secret
 * setting stored in clear is refused like one that cannot be decrypted: the rule is that none is kept
 * in clear. The error names the field, never its value. Anything but an object is passed on for the
 * parser to refuse.
 */
export function openSecretSettings(
  schema: ChannelSettingsSchema<unknown>,
  stored: unknown,
  keyring: ReadonlyMap<number, Buffer>,
): unknown {
  if (!isJsonObject(stored)) return stored;
  const opened = { ...stored };
  for (const field of secretSettingsOf(schema)) {
    const value = opened[field];
    if (value === undefined) continue;
    if (!isSealedSetting(value))
      throw new SecretDecryptionError(`settings.${field} is not stored encrypted; send it again`);
    try {
      opened[field] = decryptSecret(value.$encrypted, value.keyVersion, keyring);
    } catch (error) {
      if (!(error instanceof SecretDecryptionError)) throw error;
      throw new SecretDecryptionError(`settings.${field}: ${error.reason}`);
    }
  }
  return opened;
}
