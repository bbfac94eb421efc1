import { randomBytes } from 'node:crypto';

/**
 * The reads that checks of a long string value make (its length, slices of it as text), served
 * alike by a string and by a value held as bytes (ByteStrings.textOf): a string is one.
 */
export interface TextRead {
  readonly length: number;
  /** The text from `start` to `end` (the end by default); both at least 0. */
  slice(start: number, end?: number): string;
}

/**
 * What stands for a value in the parsed body: a string no client can write, since it carries a
 * random part drawn when the process starts, and printable ASCII without `"` or `\`, like the values
 * themselves, so that it passes unchanged through shape checks, request mapping and JSON text.
 */
const TOKEN_PREFIX = `bytes:${randomBytes(12).toString('hex')}:`;
/** A token's index, written as add() writes it: `0`, `12`, never `012`. */
const INDEX = /^(?:0|[1-9]\d*)$/;
const TOKEN_LITERAL = new RegExp(`"(${TOKEN_PREFIX}\\d+)"`, 'g');
const SPACE = 0x20;
const TILDE = 0x7e;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// perf-machinery: images-held-as-bytes (docs/performance-machinery.md)
/**
 * Long string values of one client's JSON body that the gateway holds as the body's own bytes rather
 * than as strings: a 20 MB `data:` image decoded into a string is one more copy of it in the process
 * (docs/performance-analysis.md, "A 20 MB body"). A token stands for each in the parsed body; whoever
 * needs a value's content reads it here: the image rules (`textOf`), the request hash and the task
 * row's writer (`piecesOf` a JSON text). Only printable ASCII without `"` or `\` is held so
 * (`canHold`): such a value's JSON text is its bytes between quotes, and its text is its bytes read as
 * Latin-1. One table per request: a token resolves only against the body it came from.
 */
export class ByteStrings {
  private readonly held: Buffer[] = [];

  /** Whether `bytes` can be held so: printable ASCII, neither `"` nor `\`. */
  static canHold(bytes: Uint8Array): boolean {
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index];
      if (byte < SPACE || byte > TILDE || byte === QUOTE || byte === BACKSLASH) return false;
    }
    return true;
  }

  get size(): number {
    return this.held.length;
  }

  /** Holds `bytes` (which canHold takes) and answers the token that stands for them. */
  add(bytes: Buffer): string {
    this.held.push(bytes);
    return `${TOKEN_PREFIX}${this.held.length - 1}`;
  }

  /** The bytes a token of this table stands for; undefined for any other string. */
  bytesOf(value: string): Buffer | undefined {
    if (!value.startsWith(TOKEN_PREFIX)) return undefined;
    const index = value.slice(TOKEN_PREFIX.length);
    return INDEX.test(index) ? this.held[Number(index)] : undefined;
  }

  /** The text of a value: read from its bytes when it is a token of this table, else the string itself. */
  textOf(value: string): TextRead {
    const bytes = this.bytesOf(value);
    if (!bytes) return value;
    return {
      length: bytes.length,
      slice: (start, end = bytes.length) => bytes.toString('latin1', start, Math.min(end, bytes.length)),
    };
  }

  /**
   * A JSON text in pieces, each string literal of a token of this table replaced by its bytes between
   * the quotes: the pieces in order are the text the values' strings would have made, without it ever
   * being one string.
   */
  piecesOf(jsonText: string): Array<string | Buffer> {
    const pieces: Array<string | Buffer> = [];
    let copied = 0;
    for (const match of jsonText.matchAll(TOKEN_LITERAL)) {
      const bytes = this.bytesOf(match[1]);
      if (!bytes) continue;
      pieces.push(jsonText.slice(copied, match.index + 1), bytes);
      copied = match.index + match[0].length - 1;
    }
    pieces.push(jsonText.slice(copied));
    return pieces;
  }
}
