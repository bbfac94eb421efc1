import { randomBytes } from 'node:crypto';
import { ByteStrings } from '@gateway/providers-core';
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

/** A lifted string: its text, or its bytes where the value may be held as bytes (see parseJsonBytesHolding). */
type LiftedString = LongString & ({ text: string } | { bytes: Buffer });

/** Where a value sits in a JSON document: the keys and indexes that lead to it from the root. */
export type JsonPath = readonly (string | number)[];

export interface HeldJsonBytes {
  value: unknown;
  /** The values held as bytes, each a token in `value`. */
  byteStrings: ByteStrings;
}

const DATA_SCHEME = Buffer.from('data:');

// perf-machinery: json-long-strings (docs/performance-machinery.md)
/**
 * JSON.parse of UTF-8 bytes with the same result, without decoding the whole body into one string:
 * string values of LONG_STRING_BYTES or more (`data:` images) are decoded on their own, straight from
 * the bytes, and the rest, kilobytes, is parsed with a placeholder where each one was; the whole text
 * is never decoded. Parsing the whole text holds the bytes, the text and the parsed value at once:
 * three copies of a 20 MB body (docs/performance-analysis.md, "A 20 MB body"); this holds two.
 * Hand-written because no JSON parser at hand reads bytes. A string with an escape or a control
 * character stays in the text, where JSON.parse judges it; a text that is not JSON is parsed whole, so
 * that the error names the place in the client's body. `decode` turns UTF-8 bytes into text and throws
 * on bytes that are not UTF-8.
 */
export function parseJsonBytes(bytes: Buffer, decode: (bytes: Uint8Array) => string): unknown {
  return parse(bytes, decode, undefined).value;
}

// perf-machinery: images-held-as-bytes (docs/performance-machinery.md)
/**
 * parseJsonBytes, except that each long `data:` value at a place `holds` takes, and that ByteStrings
 * can hold (printable ASCII), is not decoded at all: it stays the body's bytes, a token of the answered
 * ByteStrings in its place. The body then holds one copy of such a value, not two.
 */
export function parseJsonBytesHolding(
  bytes: Buffer,
  decode: (bytes: Uint8Array) => string,
  holds: (path: JsonPath) => boolean,
): HeldJsonBytes {
  return parse(bytes, decode, holds);
}

function parse(
  bytes: Buffer,
  decode: (bytes: Uint8Array) => string,
  holds: ((path: JsonPath) => boolean) | undefined,
): HeldJsonBytes {
  const byteStrings = new ByteStrings();
  const candidates = bytes.length < LIFT_FROM_BODY_BYTES ? [] : longStringValues(bytes);
  const lifted: LiftedString[] = [];
  for (const candidate of candidates) {
    const content = bytes.subarray(candidate.start, candidate.end);
    if (holds && isDataUrl(content) && ByteStrings.canHold(content)) {
      lifted.push({ ...candidate, bytes: content });
      continue;
    }
    const text = decode(content);
    if (!CONTROL_CHARACTER.test(text)) lifted.push({ ...candidate, text });
  }
  if (lifted.length === 0) return { value: JSON.parse(decode(bytes)), byteStrings };
  let parsed: unknown;
  try {
    parsed = JSON.parse(decode(withPlaceholders(bytes, lifted)));
  } catch {
    return { value: JSON.parse(decode(bytes)), byteStrings };
  }
  const valueOf = (index: number, path: JsonPath): string => {
    const string = lifted[index];
    if ('text' in string) return string.text;
    return holds?.(path) ? byteStrings.add(string.bytes) : decode(string.bytes);
  };
  return { value: restore(parsed, valueOf, []), byteStrings };
}

function isDataUrl(content: Buffer): boolean {
  return content.length > DATA_SCHEME.length && content.subarray(0, DATA_SCHEME.length).equals(DATA_SCHEME);
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

/** The parsed value with every placeholder replaced by its string (`valueOf` its index, at its path). */
function restore(
  value: unknown,
  valueOf: (index: number, path: JsonPath) => string,
  path: Array<string | number>,
): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(PLACEHOLDER_PREFIX)) return value;
    return valueOf(Number(value.slice(PLACEHOLDER_PREFIX.length)), path);
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      value[index] = restore(value[index], valueOf, path);
      path.pop();
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      path.push(key);
      const restored = restore(item, valueOf, path);
      path.pop();
      // defineProperty: a plain assignment to an own `__proto__` key would call the setter instead.
      if (restored !== item) Object.defineProperty(value, key, { value: restored });
    }
  }
  return value;
}
