import type { GatewayConfig } from '@gateway/config';
import type { Prisma } from '@gateway/db';
import { secretSettingsOf, type JsonObject } from '@gateway/providers-core';
import { encryptSecret, sealSecretSettings, type MasterKey } from '@gateway/routing';
import { settingsSchemaOf } from './channel-type-fit.check';

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
  const sealed = encryptSecret(secret, currentMasterKey(config));
  return { secretCiphertext: sealed.ciphertext, secretKeyVersion: sealed.version, secretTail: sealed.tail };
}

/** The `settings` column: the type's secret settings sealed under the current master key, as the secret is. */
export function toSealedSettingsColumn(
  type: string,
  settings: JsonObject,
  config: Pick<GatewayConfig, 'masterKeys'>,
): Prisma.InputJsonObject {
  // Parsed from a JSON body or from the stored column: it holds JSON values only.
  return sealSecretSettings(
    settingsSchemaOf(type),
    settings,
    currentMasterKey(config),
  ) as Prisma.InputJsonObject;
}

/**
 * Settings sent to replace the stored ones keep the stored secret settings they omit: the admin view
 * shows those masked only, so an operator changing another setting cannot send them back. A secret
 * setting sent as null is removed. `stored` (decrypted) is read only when a secret setting is omitted.
 */
export function withKeptSecretSettings(type: string, sent: JsonObject, stored: () => JsonObject): JsonObject {
  const secretFields = secretSettingsOf(settingsSchemaOf(type));
  const omitted = secretFields.filter((field) => !(field in sent));
  const kept = omitted.length > 0 ? stored() : {};
  const settings = Object.entries(sent).filter(
    ([field, value]) => !(value === null && secretFields.includes(field)),
  );
  for (const field of omitted) if (kept[field] !== undefined) settings.push([field, kept[field]]);
  return Object.fromEntries(settings);
}

function currentMasterKey(config: Pick<GatewayConfig, 'masterKeys'>): MasterKey {
  return { key: config.masterKeys.currentKey, version: config.masterKeys.currentVersion };
}
