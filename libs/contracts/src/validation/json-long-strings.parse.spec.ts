import type { ByteStrings } from '@gateway/providers-core';
import {
  LIFT_FROM_BODY_BYTES,
  LONG_STRING_BYTES,
  parseJsonBytes,
  parseJsonBytesHolding,
  type JsonPath,
} from './json-long-strings.parse';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decode = (bytes: Uint8Array) => UTF8.decode(bytes);
/** A string long enough that a body holding it is parsed with its long strings lifted. */
const long = (seed: string) => seed.repeat(Math.ceil((LIFT_FROM_BODY_BYTES + 10) / seed.length));

/** Parses `text` both ways: the same value, or the same error. */
function bothWays(text: string): unknown {
  const bytes = Buffer.from(text);
  let expected: unknown;
  try {
    expected = JSON.parse(text);
  } catch (error) {
    expect(() => parseJsonBytes(bytes, decode)).toThrow((error as Error).message);
    return undefined;
  }
  const parsed = parseJsonBytes(bytes, decode);
  expect(parsed).toEqual(expected);
  return parsed;
}

describe('parseJsonBytes', () => {
  const image = `data:image/png;base64,${long('iVBORw0KGgo')}`;

  it('gives what JSON.parse gives, with long strings at any depth, in arrays and objects', () => {
    const parsed = bothWays(
      JSON.stringify({
        model: 'alphaq2-pro',
        subjects: [{ id: 'cat', images: [image, 'https://example.test/a.png', image] }],
        image,
        nested: { deeper: [[image]], empty: '', n: 1.5, flag: true, none: null },
      }),
    ) as { subjects: Array<{ images: string[] }>; image: string };
    expect(parsed.subjects[0].images[2]).toBe(image);
    expect(parsed.image).toBe(image);
  });

  it('never decodes the whole body when it lifts: each long string alone, then the rest', () => {
    const text = JSON.stringify({ images: [image, image], prompt: 'a cat' });
    const decoded: number[] = [];
    const parsed = parseJsonBytes(Buffer.from(text), (bytes) => {
      decoded.push(bytes.length);
      return decode(bytes);
    });
    expect(parsed).toEqual(JSON.parse(text));
    expect(decoded).toHaveLength(3);
    expect(decoded.slice(0, 2)).toEqual([image.length, image.length]);
    expect(decoded[2]).toBeLessThan(200);
  });

  it('parses a body under the lifting size whole, even with a long string in it', () => {
    const text = JSON.stringify({ prompt: 'a'.repeat(LONG_STRING_BYTES + 10) });
    const decoded: number[] = [];
    parseJsonBytes(Buffer.from(text), (bytes) => {
      decoded.push(bytes.length);
      return decode(bytes);
    });
    expect(decoded).toEqual([text.length]);
  });

  it('leaves keys, escaped strings, strings with control characters and short bodies to JSON.parse', () => {
    bothWays(JSON.stringify({ [long('key')]: 1, value: 2 }));
    bothWays(JSON.stringify({ escaped: `${long('a')}"quoted"\\slash`, unicode: `${long('é')}` }));
    bothWays(`{"control":"${long('a')}\u0001"}`);
    bothWays(JSON.stringify({ short: 'hello' }));
    bothWays(JSON.stringify(image));
  });

  it('keeps an own __proto__ key as JSON.parse does, its long value included', () => {
    const parsed = bothWays(`{"__proto__":"${image}","a":"${image}"}`) as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value).toBe(image);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('reports an error at its place in the client body, not in the text it parsed', () => {
    bothWays(`{"image":"${image}","broken": }`);
    bothWays(`{"image":"${image}"`);
    bothWays(`["${image}",]`);
  });

  it('refuses bytes that are not UTF-8 inside a long string, as the decoder does', () => {
    const bytes = Buffer.concat([
      Buffer.from(`{"image":"${long('a')}`),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    expect(() => parseJsonBytes(bytes, decode)).toThrow(
      expect.objectContaining({ code: 'ERR_ENCODING_INVALID_ENCODED_DATA' }),
    );
  });

  it('never takes a client string for a placeholder', () => {
    const parsed = bothWays(JSON.stringify({ image, lookalike: '\u0000abcdef:0' })) as Record<
      string,
      unknown
    >;
    expect(parsed.lookalike).toBe('\u0000abcdef:0');
  });
});

describe('parseJsonBytesHolding', () => {
  const image = `data:image/png;base64,${long('iVBORw0KGgo')}`;
  /** Values of a list named `images`, as the alpha routes hold them. */
  const imageListItem = (path: JsonPath) => path.length >= 2 && path[path.length - 2] === 'images';

  /** The parsed value with every token read back as the string it stands for. */
  function resolved(value: unknown, byteStrings: ByteStrings): unknown {
    return JSON.parse(
      Buffer.concat(
        byteStrings.piecesOf(JSON.stringify(value)).map((piece) => Buffer.from(piece)),
      ).toString(),
    );
  }

  it("holds the long data: values its paths take as the body's bytes, never decoding them", () => {
    const other = `data:image/webp;base64,${long('UklGR')}`;
    const text = JSON.stringify({
      images: [image],
      subjects: [{ id: 'cat', images: [other, 'https://example.test/a.png'] }],
      image,
    });
    const body = Buffer.from(text);
    const decoded: number[] = [];
    const { value, byteStrings } = parseJsonBytesHolding(
      body,
      (bytes) => {
        decoded.push(bytes.length);
        return decode(bytes);
      },
      imageListItem,
    );
    const parsed = value as { images: string[]; subjects: Array<{ images: string[] }>; image: string };
    expect(byteStrings.size).toBe(2);
    expect(byteStrings.bytesOf(parsed.images[0])?.buffer).toBe(body.buffer);
    expect(byteStrings.bytesOf(parsed.subjects[0].images[0])?.toString()).toBe(other);
    // `image` sits at a path the predicate does not take: a string, as parseJsonBytes makes it.
    expect(parsed.image).toBe(image);
    expect(decoded).not.toContain(other.length);
    expect(decoded.filter((length) => length === image.length)).toHaveLength(1);
    expect(resolved(value, byteStrings)).toEqual(JSON.parse(text));
  });

  it('decodes a data: value it cannot hold (not printable ASCII), and leaves one with a control character to JSON.parse', () => {
    const accented = `data:text/plain,${long('é')}`;
    const { value, byteStrings } = parseJsonBytesHolding(
      Buffer.from(JSON.stringify({ images: [accented, image] })),
      decode,
      imageListItem,
    );
    expect((value as { images: string[] }).images[0]).toBe(accented);
    expect(byteStrings.size).toBe(1);
    const broken = Buffer.from(`{"images":["${image}\u0001"]}`);
    expect(() => parseJsonBytesHolding(broken, decode, imageListItem)).toThrow(SyntaxError);
  });

  it('holds nothing in a body under the lifting size', () => {
    const small = `data:image/png;base64,${'A'.repeat(LONG_STRING_BYTES + 4)}`;
    const { value, byteStrings } = parseJsonBytesHolding(
      Buffer.from(JSON.stringify({ images: [small] })),
      decode,
      imageListItem,
    );
    expect(value).toEqual({ images: [small] });
    expect(byteStrings.size).toBe(0);
  });
});
