import { randomBytes } from 'node:crypto';
import { closingQuote } from './json-bytes.scan';

/** String values at least this many bytes long are decoded on their own (see parseJsonBytes). */
export const LONG_STRING_BYTES = 64 * 1024;
/**
 * Only bodies this large are parsed so: below it the copies cost little memory, and the plain parse
 * less CPU (a 64 KiB text prompt took about 250 µs more through the lifting path, bench scenario 5).
 */
export const LIFT_FROM_BODY_BYTES = 1024 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/**
 * What stands in the rest of the text for a lifted string: a string no client can write, since it
 * carries a random part drawn when the process starts, written as a JSON escape so that the rest
 * stays valid JSON.
 */
const PLACEHOLDER_PREFIX = `\u0000${randomBytes(12).toString('hex')}:`;
const PLACEHOLDER_LITERAL_PREFIX = JSON.stringify(PLACEHOLDER_PREFIX).slice(0, -1);

/** Characters JSON.parse refuses unescaped inside a string. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f]/;

interface LongString {
  /** Offsets of the string's content, quotes excluded. */
  start: number;
  end: number;
}

/**
 * JSON.parse of UTF-8 bytes with the same result, without decoding the whole body into one string:
 * string values of LONG_STRING_BYTES or more (`data:` images) are decoded on their own, straight from
 * the bytes, and the rest, kilobytes, is parsed with a placeholder where each one was. Parsing the
 * whole text holds the bytes, the text and the parsed value at once: three copies of a 20 MB body
 * (docs/performance-analysis.md, "A 20 MB body"); this holds two. Hand-written because no JSON parser
 * at hand reads bytes. A string with an escape or a control character stays in the text, where
 * JSON.parse judges it; a text that is not JSON is parsed whole, so that the error names the place
 * in the client's body. `decode` turns UTF-8 bytes into text and throws on bytes that are not UTF-8.
 */
export function parseJsonBytes(bytes: Buffer, decode: (bytes: Uint8Array) => string): unknown {
  const candidates = bytes.length < LIFT_FROM_BODY_BYTES ? [] : longStringValues(bytes);
  const lifted: LongString[] = [];
  const values: string[] = [];
  for (const candidate of candidates) {
    const value = decode(bytes.subarray(candidate.start, candidate.end));
    if (CONTROL_CHARACTER.test(value)) continue;
    lifted.push(candidate);
    values.push(value);
  }
  if (lifted.length === 0) return JSON.parse(decode(bytes));
  let parsed: unknown;
  try {
    parsed = JSON.parse(decode(withPlaceholders(bytes, lifted)));
  } catch {
    return JSON.parse(decode(bytes));
  }
  return restore(parsed, values);
}

/** The string values (not keys) of at least LONG_STRING_BYTES bytes without an escape, in order. */
function longStringValues(bytes: Buffer): LongString[] {
  const found: LongString[] = [];
  let position = bytes.indexOf(QUOTE);
  while (position >= 0) {
    const start = position + 1;
    const end = closingQuote(bytes, start);
    if (end < 0) break;
    if (end - start >= LONG_STRING_BYTES && !isKey(bytes, end + 1)) {
      const backslash = bytes.indexOf(BACKSLASH, start);
      if (backslash < 0 || backslash > end) found.push({ start, end });
    }
    position = bytes.indexOf(QUOTE, end + 1);
  }
  return found;
}

/** Whether the string that ended just before `after` is an object's key: a colon follows it. */
function isKey(bytes: Buffer, after: number): boolean {
  let position = after;
  while (position < bytes.length && bytes[position] <= 0x20) position++;
  return bytes[position] === COLON;
}

/** The bytes with each lifted string's content replaced by its placeholder (`"\u0000<random>:<n>"`). */
function withPlaceholders(bytes: Buffer, lifted: readonly LongString[]): Buffer {
  const parts: Buffer[] = [];
  let copied = 0;
  lifted.forEach(({ start, end }, index) => {
    // The placeholder literal replaces the quotes too: the content's own quotes are at start - 1, end.
    parts.push(bytes.subarray(copied, start - 1), Buffer.from(`${PLACEHOLDER_LITERAL_PREFIX}${index}"`));
    copied = end + 1;
  });
  parts.push(bytes.subarray(copied));
  return Buffer.concat(parts);
}

/** The parsed value with every placeholder replaced by its string. */
function restore(value: unknown, lifted: readonly string[]): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(PLACEHOLDER_PREFIX)) return value;
    return lifted[Number(value.slice(PLACEHOLDER_PREFIX.length))];
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) value[index] = restore(value[index], lifted);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const restored = restore(item, lifted);
      // defineProperty: a plain assignment to an own `__proto__` key would call the setter instead.
      if (restored !== item) Object.defineProperty(value, key, { value: restored });
    }
  }
  return value;
}
