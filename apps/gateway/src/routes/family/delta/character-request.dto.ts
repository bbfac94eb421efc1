import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  combinePropertyDecorators,
  hasUnstorableText,
  ValidateRule,
  type ValueCheck,
} from '@gateway/contracts';

export const DEFAULT_CHARACTER_MODEL = 'delta-2';
export const DEFAULT_CHARACTER_NAME = 'character';
/** The route is the delta family's: its models, whatever channel serves them. */
const DELTA_MODEL_PREFIX = 'delta-';
const MAX_NAME_LENGTH = 80;
const MAX_URL_LENGTH = 4096;
/** A character is taken from a short stretch of the clip. */
const CHARACTER_WINDOW_SECONDS = { min: 1, max: 10 } as const;

const SECONDS = String.raw`\d+(?:\.\d+)?`;
const WINDOW_TEXT = new RegExp(String.raw`^\s*(${SECONDS})\s*,\s*(${SECONDS})\s*$`);
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

function modelProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' && value.startsWith(DELTA_MODEL_PREFIX) && isPlainText(value)
    ? undefined
    : `must be a delta model (${DELTA_MODEL_PREFIX}*), such as ${DEFAULT_CHARACTER_MODEL}`;
}

function nameProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const name = typeof value === 'string' ? value.trim() : '';
  return name === '' || name.length > MAX_NAME_LENGTH || !isPlainText(name)
    ? `must be text of 1 to ${MAX_NAME_LENGTH} characters without control characters`
    : undefined;
}

function urlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'is required: the URL of the clip';
  let url: URL | undefined;
  try {
    url = value.length <= MAX_URL_LENGTH ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  return url && (url.protocol === 'http:' || url.protocol === 'https:')
    ? undefined
    : `must be an http or https URL of at most ${MAX_URL_LENGTH} characters`;
}

function windowProblem(value: unknown): string | undefined {
  const bounds = windowBoundsOf(value);
  if (!bounds) return 'must be "start,end" in seconds (such as "1.5,4") or [start, end]';
  const [start, end] = bounds;
  const { min, max } = CHARACTER_WINDOW_SECONDS;
  // Milliseconds: 1.7 - 0.7 is 0.9999999999999999 in binary floating point.
  const length = Math.round((end - start) * 1000) / 1000;
  return length < min || length > max
    ? `must span ${min} to ${max} seconds, with start before end; ${start} to ${end} spans ${length}`
    : undefined;
}

/** A field documented by `property` and checked by `check`, which words its problem. */
function CharacterField(
  property: ApiPropertyOptions,
  ruleName: string,
  check: ValueCheck,
): PropertyDecorator {
  return combinePropertyDecorators(ApiProperty(property), ValidateRule(ruleName, check));
}

/** The body of `POST /delta/v1/characters` (character-request.ts): its fields, checked in this order. */
export class CharacterRequestDto {
  @CharacterField(
    { type: String, required: false, default: DEFAULT_CHARACTER_MODEL, description: 'A delta model.' },
    'deltaModel',
    modelProblem,
  )
  model?: string;

  @CharacterField(
    { type: String, required: false, default: DEFAULT_CHARACTER_NAME, maxLength: MAX_NAME_LENGTH },
    'characterName',
    nameProblem,
  )
  name?: string;

  @CharacterField(
    { type: String, format: 'uri', description: 'http(s) URL of the clip.' },
    'clipUrl',
    urlProblem,
  )
  character_url: string;

  @CharacterField(
    {
      description:
        `The window in seconds, ${CHARACTER_WINDOW_SECONDS.min} to ${CHARACTER_WINDOW_SECONDS.max} s ` +
        'long: "start,end" or [start, end].',
      oneOf: [
        { type: 'string', example: '1.5,4' },
        { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
      ],
    },
    'clipWindow',
    windowProblem,
  )
  character_timestamps: string | [number, number];
}

/**
 * The text fields of `POST /v1/videos/characters` (multipart, beside the clip), checked as the JSON
 * route checks them. The clip itself is a file part, read and checked by the route's form reader.
 */
export class UploadedCharacterRequestDto {
  @CharacterField(
    { type: String, required: false, default: DEFAULT_CHARACTER_MODEL, description: 'A delta model.' },
    'deltaModel',
    modelProblem,
  )
  model?: string;

  @CharacterField(
    { type: String, required: false, default: DEFAULT_CHARACTER_NAME, maxLength: MAX_NAME_LENGTH },
    'characterName',
    nameProblem,
  )
  name?: string;

  @ApiProperty({ type: 'string', format: 'binary', description: 'The clip: its bytes must be a video.' })
  video: unknown;
}

/** The window's start and end in seconds, or undefined when it is none. */
export function windowBoundsOf(value: unknown): [number, number] | undefined {
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
