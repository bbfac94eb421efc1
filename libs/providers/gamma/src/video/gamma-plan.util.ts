import {
  isJsonObject,
  videoRefusal,
  type JsonValue,
  type SerialisableObject,
  type VideoRuled,
} from '@gateway/providers-core';

/** What a rule made of a field it accepts. */
export function resolved<T>(value: T): VideoRuled<T> {
  return { ok: true, value };
}

/** `metadata[key]` when metadata is an object; undefined otherwise. */
export function metadataField(metadata: SerialisableObject | undefined, key: string): JsonValue | undefined {
  return metadata !== undefined && Object.hasOwn(metadata, key) ? metadata[key] : undefined;
}

/** `metadata.output_config`, refused when present but not an object. */
export function outputConfigOf(metadata: SerialisableObject | undefined): VideoRuled<SerialisableObject> {
  const value = metadataField(metadata, 'output_config');
  if (value === undefined || value === null) return resolved({});
  if (!isJsonObject(value))
    return videoRefusal('metadata.output_config', 'metadata.output_config must be an object');
  return resolved(value as SerialisableObject);
}

/**
 * A value of a closed set, matched without regard to case and returned as the set spells it
 * (`enabled` → `Enabled`); undefined when it is not a string of the set.
 */
export function oneOf<Value extends string>(value: unknown, allowed: readonly Value[]): Value | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return allowed.find((candidate) => candidate.toLowerCase() === lower);
}

/** The set as a refusal lists it. */
export function listed(values: readonly (string | number)[]): string {
  return values.join(', ');
}

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

export function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && HTTP_URL.test(value);
}

const SNAKE_CASE_KEY = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * The wire's PascalCase key for a snake_case key of the client's (`audio_generation` →
 * `AudioGeneration`, the general rule of upstreams.md §5.4); undefined for a key of any other shape.
 */
export function wireKeyOf(key: string): string | undefined {
  if (!SNAKE_CASE_KEY.test(key)) return undefined;
  return key
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');
}
