import { channelTypeDefinition } from '@gateway/providers';
import {
  NoChannelSettings,
  parseChannelConnection,
  type ChannelConnectionFields,
  type ChannelSettingsSchema,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';

/**
 * Refuses, as a 400 naming the field, a channel whose secret or settings do not fit its type. The
 * message names the form the type expects (`secret must be AccessKey|SecretKey`) and never contains
 * the secret. A known type without a definition yet has nothing to check against: its channels are
 * stored, and routed once the definition lands (which checks them on load).
 */
export function assertFitsChannelType(type: string, fields: ChannelConnectionFields): void {
  const definition = channelTypeDefinition(type);
  if (!definition) return;
  const parsed = parseChannelConnection(definition, fields);
  if (!parsed.ok) throw GatewayError.invalidRequest(`Channel type ${type}: ${parsed.message}.`, parsed.field);
}

/** The type's settings schema, which says which settings are secret; none for a type without a definition. */
export function settingsSchemaOf(type: string): ChannelSettingsSchema<unknown> {
  return channelTypeDefinition(type)?.settings ?? NoChannelSettings;
}
