import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from '../class-validator.parts';
import { isJsonObject } from '../json-object.util';

/**
 * A channel type's per-channel settings, described as a class-validator DTO class: its decorated
 * fields are the settings the type takes (a control-plane URL, a region …), all others are refused.
 */
export type ChannelSettingsSchema<Settings> = new () => Settings;

export type SettingsParse<Settings> = { ok: true; settings: Settings } | { ok: false; problem: string };

/** The schema of a type that takes no per-channel settings: only `{}` fits it. */
export class NoChannelSettings {}

const WHOLE_SETTINGS = 'settings';

/** Wrong types are refused, never coerced; unknown fields are refused, so a misspelt one fails loudly. */
const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
};

/** Checks a channel's `settings` JSON against its type's schema; a problem names the field at fault. */
export function parseChannelSettings<Settings>(
  schema: ChannelSettingsSchema<Settings>,
  value: unknown,
): SettingsParse<Settings> {
  if (!isJsonObject(value)) return { ok: false, problem: `${WHOLE_SETTINGS} must be a JSON object` };
  const settings = plainToInstance(schema, value, { enableImplicitConversion: false });
  // An instance of a class, whatever the schema's declared type: plainToInstance built it from an object.
  const [first] = validateSync(settings as object, VALIDATOR_OPTIONS);
  return first ? { ok: false, problem: describeProblem(first, WHOLE_SETTINGS) } : { ok: true, settings };
}

/** The first problem of a validation error tree, with the field's full path (`settings.region …`). */
function describeProblem(error: ValidationError, parentPath: string): string {
  const path = `${parentPath}.${error.property}`;
  const [child] = error.children ?? [];
  if (child) return describeProblem(child, path);
  const constraints = error.constraints ?? {};
  if ('whitelistValidation' in constraints) return `${path} is not a setting of this channel type`;
  // class-validator's messages start with the property name: replace it by the whole path.
  const message = Object.values(constraints)[0] ?? 'is invalid';
  return message.startsWith(`${error.property} `)
    ? `${path}${message.slice(error.property.length)}`
    : `${path}: ${message}`;
}
