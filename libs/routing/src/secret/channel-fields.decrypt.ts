import type { ChannelConnectionFields, ChannelTypeDefinition } from '@gateway/providers-core';
import { decryptSecret } from './channel-secret.cipher';
import { openSecretSettings } from './secret-settings.sealing';

/** The sealed columns of a channel row, as both the routing row and the Prisma model have them. */
export interface SealedChannelColumns {
  baseUrl: string;
  secretCiphertext: string;
  secretKeyVersion: number;
  settings: unknown;
}

/**
 * A stored channel's connection fields in clear, for parseChannelConnection: its secret and its
 * type's secret settings decrypted. Every process loading channel rows goes through here. Throws a
 * SecretDecryptionError, whose message never holds a secret, when one cannot be decrypted.
 */
export function decryptChannelFields(
  definition: ChannelTypeDefinition,
  row: SealedChannelColumns,
  keyring: ReadonlyMap<number, Buffer>,
): ChannelConnectionFields {
  return {
    baseUrl: row.baseUrl,
    secret: decryptSecret(row.secretCiphertext, row.secretKeyVersion, keyring),
    settings: openSecretSettings(definition.settings, row.settings, keyring),
  };
}
