import { LIFT_FROM_BODY_BYTES, LONG_STRING_BYTES, parseJsonBytes } from './json-long-strings.parse';

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
