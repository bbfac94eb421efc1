import { StringDecoder } from 'node:string_decoder';

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const INCOMPLETE = -1;

function isWhitespace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

type ScanState = 'before-array' | 'between-elements' | 'in-element' | 'after-array';

/**
 * Incremental scanner of one streamed JSON array. It does not validate elements (JSON.parse does that
 * later); it only finds where each top-level element ends: nesting depth outside strings, and string
 * ends that are not escaped. Only the text of the element being received is kept between pushes.
 */
export class JsonArrayElementScanner {
  private state: ScanState = 'before-array';
  /** The unfinished element's text received so far (empty between elements). */
  private partialElement = '';
  private depth = 0;
  private inString = false;
  /** The element is a bare number, true, false or null, which ends at a delimiter. */
  private inScalar = false;

  /** Feeds decoded text; appends the text of every element completed by it to `elements`. */
  push(text: string, elements: string[]): void {
    if (text.length === 0) return;
    const resumeAt = this.partialElement.length;
    const buffer = resumeAt > 0 ? this.partialElement + text : text;
    this.partialElement = '';
    let elementStart = 0;
    let index = this.state === 'in-element' ? resumeAt : 0;
    while (index < buffer.length) {
      if (this.state === 'in-element') {
        const end = this.scanElement(buffer, index);
        if (end === INCOMPLETE) break;
        elements.push(buffer.slice(elementStart, end));
        this.state = 'between-elements';
        index = end;
        continue;
      }
      const code = buffer.charCodeAt(index);
      if (this.state === 'between-elements') {
        if (code === CLOSE_BRACKET) {
          this.state = 'after-array';
        } else if (!isWhitespace(code) && code !== COMMA) {
          elementStart = index;
          index = this.startElement(code, index);
          continue;
        }
      } else if (this.state === 'before-array') {
        if (code === OPEN_BRACKET) this.state = 'between-elements';
        else if (!isWhitespace(code)) throw new SyntaxError('streamed JSON does not start with an array');
      } else if (!isWhitespace(code)) {
        throw new SyntaxError('unexpected text after the streamed JSON array');
      }
      index += 1;
    }
    // An element whose first character ended the text is continued by the next push.
    if (this.state === 'in-element') this.partialElement = buffer.slice(elementStart);
  }

  /** Throws when the input ended before the array was closed. */
  finish(): void {
    if (this.state !== 'after-array') throw new SyntaxError('streamed JSON array ended early');
  }

  /** Enters an element at its first character; returns where scanning continues. */
  private startElement(code: number, index: number): number {
    this.state = 'in-element';
    this.inString = code === QUOTE;
    this.inScalar = !this.inString && code !== OPEN_BRACE && code !== OPEN_BRACKET;
    this.depth = this.inString || this.inScalar ? 0 : 1;
    return this.inScalar ? index : index + 1;
  }

  /** Scans the current element from `index`; returns its end (exclusive) or INCOMPLETE. */
  private scanElement(buffer: string, index: number): number {
    while (index < buffer.length) {
      if (this.inString) {
        // Strings hold most of the bytes (text, base64 data): jump from quote to quote.
        const quote = buffer.indexOf('"', index);
        if (quote === -1) return INCOMPLETE;
        index = quote + 1;
        let backslashes = 0;
        while (buffer.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
        if (backslashes % 2 === 1) continue;
        this.inString = false;
        if (this.depth === 0) return index;
        continue;
      }
      const code = buffer.charCodeAt(index);
      if (this.inScalar) {
        if (isWhitespace(code) || code === COMMA || code === CLOSE_BRACKET) return index;
      } else if (code === QUOTE) {
        this.inString = true;
      } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
        this.depth += 1;
      } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        this.depth -= 1;
        if (this.depth === 0) return index + 1;
      }
      index += 1;
    }
    return INCOMPLETE;
  }
}

/** Yields the JSON text of each top-level element of a streamed JSON array as soon as it is complete. */
export async function* readJsonArrayElements(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  const scanner = new JsonArrayElementScanner();
  const elements: string[] = [];
  for await (const chunk of body) {
    scanner.push(decoder.write(chunk), elements);
    if (elements.length === 0) continue;
    for (const element of elements) yield element;
    elements.length = 0;
  }
  scanner.push(decoder.end(), elements);
  scanner.finish();
  for (const element of elements) yield element;
}
