import { isBase64, isISO8601, isURL } from '@gateway/providers-core';
import { hasUnstorableText, UNSTORABLE_TEXT_PROBLEM } from './storable-text.check';

/**
 * A check answers `undefined` when a value is acceptable, otherwise the problem in words without the
 * field name ("must be a number"); the caller puts the field path in front. A problem about a part of
 * the value starts with that part's relative path ("[1] must be a string", ".url is required"), so the
 * reported field stays as precise as the wire.
 */
export type ValueCheck = (value: unknown) => string | undefined;

export interface NumberBounds {
  min?: number;
  max?: number;
}

export interface StringRules {
  /** Refuse the empty string (names, identifiers). */
  nonEmpty?: boolean;
  maxLength?: number;
  pattern?: RegExp;
  /** What the pattern means, said to the client: "must be <patternHint>". */
  patternHint?: string;
  /** Refuse what Postgres cannot store (NUL, unpaired surrogates): text kept as the client sent it. */
  storable?: boolean;
}

export interface ListRules {
  minItems?: number;
  maxItems?: number;
}

/** The OpenAPI keywords of list rules, so that the documented limits are the enforced ones. */
export function listSchema({ minItems, maxItems }: ListRules): { minItems?: number; maxItems?: number } {
  return {
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {}),
  };
}

/** Largest value of a signed 64-bit column; money in micros is stored there. */
export const MAX_MICROS = 9223372036854775807n;

const DIGITS = /^[0-9]+$/;
const RELATIVE_PATH_START = /^[[.]/;

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Prefixes a problem with the relative path of the part it concerns. */
export function problemAt(relativePath: string, problem: string | undefined): string | undefined {
  if (problem === undefined) return undefined;
  return RELATIVE_PATH_START.test(problem) ? `${relativePath}${problem}` : `${relativePath} ${problem}`;
}

function boundsProblem(value: number, { min, max }: NumberBounds): string | undefined {
  const outside = (min !== undefined && value < min) || (max !== undefined && value > max);
  if (!outside) return undefined;
  if (min !== undefined && max !== undefined) return `must be between ${min} and ${max}`;
  return min !== undefined ? `must be at least ${min}` : `must be at most ${max}`;
}

export function checkNumber(value: unknown, bounds: NumberBounds = {}): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  return boundsProblem(value, bounds);
}

export function checkInteger(value: unknown, bounds: NumberBounds = {}): string | undefined {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return 'must be an integer';
  return boundsProblem(value, bounds);
}

export function checkBoolean(value: unknown): string | undefined {
  return typeof value === 'boolean' ? undefined : 'must be a boolean';
}

export function checkString(value: unknown, rules: StringRules = {}): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (rules.nonEmpty && value.length === 0) return 'must not be empty';
  if (rules.maxLength !== undefined && value.length > rules.maxLength) {
    return `must be at most ${rules.maxLength} characters long`;
  }
  if (rules.pattern && !rules.pattern.test(value))
    return `must be ${rules.patternHint ?? `like ${rules.pattern}`}`;
  if (rules.storable && hasUnstorableText(value)) return UNSTORABLE_TEXT_PROBLEM;
  return undefined;
}

export function checkOneOf(value: unknown, allowed: readonly string[]): string | undefined {
  return typeof value === 'string' && allowed.includes(value)
    ? undefined
    : `must be one of ${allowed.join(', ')}`;
}

export function checkJsonObject(value: unknown): string | undefined {
  return isJsonObject(value) ? undefined : 'must be an object';
}

export function checkList(value: unknown, checkItem?: ValueCheck, rules: ListRules = {}): string | undefined {
  if (!Array.isArray(value)) return 'must be an array';
  const { minItems, maxItems } = rules;
  if (minItems !== undefined && value.length < minItems) {
    return minItems === 1 ? 'must not be empty' : `must have at least ${minItems} items`;
  }
  if (maxItems !== undefined && value.length > maxItems) return `must have at most ${maxItems} items`;
  if (!checkItem) return undefined;
  for (let index = 0; index < value.length; index++) {
    const problem = problemAt(`[${index}]`, checkItem(value[index]));
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** An object used as a map: every key non-empty, every value passing `checkEntry`. */
export function checkRecord(value: unknown, checkEntry: ValueCheck): string | undefined {
  if (!isJsonObject(value)) return 'must be an object';
  for (const [key, entry] of Object.entries(value)) {
    const path = `[${JSON.stringify(key)}]`;
    if (key.length === 0) return `${path} must have a non-empty name`;
    const problem = problemAt(path, checkEntry(entry));
    if (problem !== undefined) return problem;
  }
  return undefined;
}

export function checkBase64(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  return value.length > 0 && isBase64(value) ? undefined : 'must be Base64-encoded data';
}

export function checkIsoDate(value: unknown): string | undefined {
  return typeof value === 'string' && isISO8601(value, { strict: true })
    ? undefined
    : 'must be an ISO 8601 date or date-time';
}

export function checkHttpUrl(value: unknown): string | undefined {
  const valid =
    typeof value === 'string' &&
    isURL(value, {
      protocols: ['http', 'https'],
      require_protocol: true,
      require_tld: false,
      allow_underscores: true,
    });
  return valid ? undefined : 'must be an http or https URL';
}

/**
 * Money in micros: a decimal string of digits (a safe integer is normalised to one before this check
 * runs), at most the largest BIGINT.
 */
export function checkMicros(value: unknown, { positive = false } = {}): string | undefined {
  if (typeof value !== 'string' || !DIGITS.test(value)) {
    return 'must be a whole number of micros (a string of digits or a non-negative integer)';
  }
  const micros = BigInt(value);
  if (micros > MAX_MICROS) return `must be at most ${MAX_MICROS}`;
  if (positive && micros === 0n) return 'must be greater than 0';
  return undefined;
}

/** A non-negative safe integer becomes its decimal string; anything else is left for the check to refuse. */
export function toMicrosString(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
}
