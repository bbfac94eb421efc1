import { BODY_SHAPE_LIMITS, BodyShapeLimits } from './body-limits.constants';
import type { FieldProblem } from './field-problems.util';
import { PathSegment, RESERVED_KEYS, shapeProblem, ShapeFaultKind } from './shape-problems.util';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Bytes that end a number or a literal (`true`, `false`, `null`), malformed input included. */
function endsScalar(byte: number): boolean {
  return (
    byte === COMMA ||
    byte === CLOSE_ARRAY ||
    byte === CLOSE_OBJECT ||
    byte === COLON ||
    byte === QUOTE ||
    byte === OPEN_ARRAY ||
    byte === OPEN_OBJECT ||
    byte <= 0x20
  );
}

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Bytes of a string read by a loop before handing over to `indexOf` (native, fast on long strings). */
const SHORT_STRING = 32;

/** Offset of the quote that closes the string whose content starts at `start`; -1 when there is none. */
export function closingQuote(bytes: Buffer, start: number): number {
  const shortEnd = Math.min(bytes.length, start + SHORT_STRING);
  let position = start;
  while (position < shortEnd) {
    const byte = bytes[position];
    if (byte === QUOTE) return position;
    position += byte === BACKSLASH ? 2 : 1;
  }
  for (;;) {
    const quote = bytes.indexOf(QUOTE, position);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (quote - backslashes - 1 >= start && bytes[quote - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    position = quote + 1;
  }
}

/** Open containers, innermost last: what a fault's path is read from. */
class ContainerStack {
  readonly isArray: boolean[] = [];
  /** Items seen in an array, keys seen in an object. */
  readonly entries: number[] = [];
  /** Offsets of the current key of an object, quotes included. */
  readonly keyStart: number[] = [];
  readonly keyEnd: number[] = [];
  depth = 0;

  push(isArray: boolean): void {
    this.isArray[this.depth] = isArray;
    this.entries[this.depth] = 0;
    this.keyStart[this.depth] = -1;
    this.depth++;
  }

  pop(): void {
    if (this.depth > 0) this.depth--;
  }

  /** The path of the container at `level` (0 is the body), read from the bytes only now. */
  pathTo(level: number, bytes: Buffer): PathSegment[] {
    const segments: PathSegment[] = [];
    for (let outer = 0; outer < level; outer++) {
      segments.push(
        this.isArray[outer]
          ? this.entries[outer] - 1
          : keyAt(bytes, this.keyStart[outer], this.keyEnd[outer]),
      );
    }
    return segments;
  }
}

/** The key read at `start`; in malformed JSON a container may sit in an object without one. */
function keyAt(bytes: Buffer, start: number, end: number): string {
  if (start < 0) return '?';
  const written = bytes.toString('utf8', start, end);
  try {
    return String(JSON.parse(written));
  } catch {
    return written.slice(1, -1);
  }
}

/** The lengths of the reserved keys; a key may also write each character as `\\uXXXX` (six bytes). */
const RESERVED_KEY_LENGTHS: ReadonlySet<number> = new Set([...RESERVED_KEYS].map((key) => key.length));
const LONGEST_ESCAPED_RESERVED_KEY = Math.max(...RESERVED_KEY_LENGTHS) * 6;

/**
 * Whether the key whose quotes are at `start` and `end - 1` is a reserved one (RESERVED_KEYS), read
 * only when its bytes could spell one: `"\\u005f_proto__"` is `__proto__` once parsed.
 */
function isReservedKeyAt(bytes: Buffer, start: number, end: number): boolean {
  const length = end - start - 2;
  if (length > LONGEST_ESCAPED_RESERVED_KEY) return false;
  if (!bytes.subarray(start + 1, end - 1).includes(BACKSLASH)) {
    return (
      RESERVED_KEY_LENGTHS.has(length) && RESERVED_KEYS.has(bytes.toString('latin1', start + 1, end - 1))
    );
  }
  return RESERVED_KEYS.has(keyAt(bytes, start, end));
}

/**
 * The shape limits of `BODY_SHAPE_LIMITS` checked on the raw bytes, before `JSON.parse` builds
 * anything: a body of millions of empty items is refused after reading its first 10,001, in
 * microseconds, instead of costing seconds and hundreds of megabytes to parse. Hand-written because
 * the JSON parsers at hand (V8's, and the streaming ones on npm) have no such limits. Not a JSON
 * validator: malformed input passes unless it breaks a limit on the way, and `JSON.parse` reports it.
 * A reserved key (`__proto__`, `constructor`) is refused here too, so no JSON route can take one.
 */
export function findJsonBytesShapeProblem(
  bytes: Buffer,
  limits: BodyShapeLimits = BODY_SHAPE_LIMITS,
): FieldProblem | undefined {
  const stack = new ContainerStack();
  const fault = (kind: ShapeFaultKind, level: number) =>
    shapeProblem(kind, stack.pathTo(level, bytes), limits);
  let values = 0;
  let expectingKey = false;
  let position = 0;
  while (position < bytes.length) {
    const byte = bytes[position];
    if (isWhitespace(byte) || byte === COLON) {
      position++;
      continue;
    }
    if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      stack.pop();
      expectingKey = false;
      position++;
      continue;
    }
    if (byte === COMMA) {
      expectingKey = stack.depth > 0 && !stack.isArray[stack.depth - 1];
      position++;
      continue;
    }
    const innermost = stack.depth - 1;
    if (byte === QUOTE && expectingKey) {
      const end = closingQuote(bytes, position + 1);
      if (end < 0) return undefined;
      if (++stack.entries[innermost] > limits.maxEntries) return fault('fields', innermost);
      stack.keyStart[innermost] = position;
      stack.keyEnd[innermost] = end + 1;
      if (isReservedKeyAt(bytes, position, end + 1)) return fault('reservedKey', innermost + 1);
      expectingKey = false;
      position = end + 1;
      continue;
    }
    // A value starts here.
    if (++values > limits.maxValues) return fault('values', 0);
    if (innermost >= 0 && stack.isArray[innermost] && ++stack.entries[innermost] > limits.maxEntries) {
      return fault('items', innermost);
    }
    if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (stack.depth >= limits.maxDepth) return fault('depth', stack.depth);
      stack.push(byte === OPEN_ARRAY);
      expectingKey = byte === OPEN_OBJECT;
      position++;
    } else if (byte === QUOTE) {
      const end = closingQuote(bytes, position + 1);
      if (end < 0) return undefined;
      position = end + 1;
    } else {
      position++;
      while (position < bytes.length && !endsScalar(bytes[position])) position++;
    }
  }
  return undefined;
}
