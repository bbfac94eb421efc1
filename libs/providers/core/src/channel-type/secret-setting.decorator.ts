import type { ChannelSettingsSchema } from './channel-settings.parse';

/** The secret fields of each settings schema class, as its decorators declared them. */
const SECRET_FIELDS = new WeakMap<object, readonly string[]>();

/**
 * Marks a string setting as a credential (a control-plane key …): the admin API stores it encrypted
 * like the channel's secret and shows it masked, and a process loading the channel decrypts it before
 * the schema checks it. Its validation decorators still apply, to the decrypted value.
 */
export function SecretSetting(): PropertyDecorator {
  return (prototype, property) => {
    const schema = prototype.constructor;
    SECRET_FIELDS.set(schema, [...(SECRET_FIELDS.get(schema) ?? []), String(property)]);
  };
}

/** The fields of a settings schema marked @SecretSetting(); none for most types. */
export function secretSettingsOf(schema: ChannelSettingsSchema<unknown>): readonly string[] {
  return SECRET_FIELDS.get(schema) ?? [];
}
