import { hasUnstorableText } from '@gateway/contracts';
import { GatewayError } from '../../../platform/errors/gateway-error';

/**
 * The body of `POST /delta/v1/characters` (JSON):
 *
 * | Field | Type | Rule |
 * |---|---|---|
 * | `model` | string | optional, default `delta-2`; a delta model (`delta-*`) some channel serves |
 * | `name` | string | optional, default `character`; 1–80 characters, no control characters |
 * | `character_url` | string | required; the http(s) URL of the clip, fetched through the SSRF-safe fetcher |
 * | `character_timestamps` | string or array | required; the window of the clip the character is taken from, in seconds: `"start,end"` (`"1.5,4"`) or `[start, end]` (`[1.5, 4]`); 0 ≤ start < end, 1 to 10 seconds long |
 *
 * Other fields are ignored.
 */
export interface CharacterRequest {
  model: string;
  name: string;
  url: string;
  window: { start: number; end: number };
}

export const DEFAULT_CHARACTER_MODEL = 'delta-2';
const DEFAULT_CHARACTER_NAME = 'character';
/** The route is the delta family's: its models, whatever channel serves them. */
const DELTA_MODEL_PREFIX = 'delta-';
const MAX_NAME_LENGTH = 80;
const MAX_URL_LENGTH = 4096;
/** A character is taken from a short stretch of the clip. */
export const CHARACTER_WINDOW_SECONDS = { min: 1, max: 10 } as const;

const SECONDS = String.raw`\d+(?:\.\d+)?`;
const WINDOW_TEXT = new RegExp(String.raw`^\s*(${SECONDS})\s*,\s*(${SECONDS})\s*$`);
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** Reads and checks the body; every refusal is a 400 naming the field. */
export function characterRequestOf(body: unknown): CharacterRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw GatewayError.invalidRequest('The body must be a JSON object.', '(body)');
  }
  const fields = body as Record<string, unknown>;
  return {
    model: modelOf(fields['model']),
    name: nameOf(fields['name']),
    url: urlOf(fields['character_url']),
    window: windowOf(fields['character_timestamps']),
  };
}

function modelOf(value: unknown): string {
  if (value === undefined) return DEFAULT_CHARACTER_MODEL;
  if (typeof value !== 'string' || !value.startsWith(DELTA_MODEL_PREFIX) || !isPlainText(value)) {
    throw GatewayError.invalidRequest(
      `model must be a delta model (${DELTA_MODEL_PREFIX}*), such as ${DEFAULT_CHARACTER_MODEL}.`,
      'model',
    );
  }
  return value;
}

function nameOf(value: unknown): string {
  if (value === undefined) return DEFAULT_CHARACTER_NAME;
  const name = typeof value === 'string' ? value.trim() : '';
  if (name === '' || name.length > MAX_NAME_LENGTH || !isPlainText(name)) {
    throw GatewayError.invalidRequest(
      `name must be text of 1 to ${MAX_NAME_LENGTH} characters without control characters.`,
      'name',
    );
  }
  return name;
}

function urlOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw GatewayError.invalidRequest('character_url is required: the URL of the clip.', 'character_url');
  }
  let url: URL | undefined;
  try {
    url = value.length <= MAX_URL_LENGTH ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw GatewayError.invalidRequest(
      `character_url must be an http or https URL of at most ${MAX_URL_LENGTH} characters.`,
      'character_url',
    );
  }
  return value;
}

function windowOf(value: unknown): { start: number; end: number } {
  const bounds = windowBoundsOf(value);
  const { min, max } = CHARACTER_WINDOW_SECONDS;
  if (!bounds) {
    throw GatewayError.invalidRequest(
      'character_timestamps must be "start,end" in seconds (such as "1.5,4") or [start, end].',
      'character_timestamps',
    );
  }
  const [start, end] = bounds;
  // Milliseconds: 1.7 - 0.7 is 0.9999999999999999 in binary floating point.
  const length = Math.round((end - start) * 1000) / 1000;
  if (length < min || length > max) {
    throw GatewayError.invalidRequest(
      `character_timestamps must span ${min} to ${max} seconds, with start before end; ${start} to ${end} spans ${length}.`,
      'character_timestamps',
    );
  }
  return { start, end };
}

function windowBoundsOf(value: unknown): [number, number] | undefined {
  if (typeof value === 'string') {
    const match = WINDOW_TEXT.exec(value);
    return match ? [Number(match[1]), Number(match[2])] : undefined;
  }
  if (Array.isArray(value) && value.length === 2) {
    const [start, end] = value as unknown[];
    if (isSeconds(start) && isSeconds(end)) return [start, end];
  }
  return undefined;
}

/** No control characters, nor what Postgres cannot store in the request log (unpaired surrogates). */
function isPlainText(value: string): boolean {
  return !CONTROL_CHARACTERS.test(value) && !hasUnstorableText(value);
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** The same checks for the fields of an uploaded character (`POST /v1/videos/characters`). */
export function uploadedCharacterFieldsOf(fields: { model?: unknown; name?: unknown }): {
  model: string;
  name: string;
} {
  return { model: modelOf(fields.model), name: nameOf(fields.name) };
}
