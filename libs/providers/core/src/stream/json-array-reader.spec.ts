import { readJsonArrayElements } from './json-array-reader';

async function collect(chunks: Array<Buffer | string>): Promise<string[]> {
  async function* body(): AsyncIterable<Buffer> {
    for (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  }
  const elements: string[] = [];
  for await (const element of readJsonArrayElements(body())) elements.push(element);
  return elements;
}

const ELEMENTS = [
  '{"candidates":[{"content":{"parts":[{"text":"a ] } [ { bracket"}]}}],"n":1}',
  '{"text":"say \\"hi\\" {not [nested}","path":"C:\\\\dir\\\\","emoji":"😀 é"}',
  '{"nested":{"list":[[1,2],[{"x":"]"}]],"empty":{},"none":[]}}',
  '"a top-level string with ] and \\\\"',
  '-12.5e3',
  'true',
  'null',
  '[]',
];
const STREAMED = `  [${ELEMENTS[0]}\r\n,\r\n${ELEMENTS[1]} ,\n\n\t${ELEMENTS.slice(2).join(' , ')}\n]\n`;

describe('readJsonArrayElements', () => {
  it('yields the exact text of every top-level element, whatever the whitespace between them', async () => {
    const elements = await collect([STREAMED]);
    expect(elements).toEqual(ELEMENTS);
    expect(elements.map((element) => JSON.parse(element))).toEqual(
      ELEMENTS.map((element) => JSON.parse(element)),
    );
  });

  it('gives the same elements when the body is split at every byte boundary', async () => {
    const bytes = Buffer.from(STREAMED);
    for (let split = 1; split < bytes.length; split += 1) {
      await expect(collect([bytes.subarray(0, split), bytes.subarray(split)])).resolves.toEqual(ELEMENTS);
    }
    await expect(collect([...bytes].map((byte) => Buffer.from([byte])))).resolves.toEqual(ELEMENTS);
  });

  it('reads empty arrays', async () => {
    await expect(collect(['[]'])).resolves.toEqual([]);
    await expect(collect([' [ \n ] '])).resolves.toEqual([]);
  });

  it('yields an element as soon as it is complete, before the array ends', async () => {
    let releaseRest: () => void = () => undefined;
    const restAllowed = new Promise<void>((resolve) => (releaseRest = resolve));
    async function* body(): AsyncIterable<Buffer> {
      yield Buffer.from('[{"a":1}\n,{"b":');
      await restAllowed;
      yield Buffer.from('2}]');
    }
    const iterator = readJsonArrayElements(body())[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ done: false, value: '{"a":1}' });
    releaseRest();
    await expect(iterator.next()).resolves.toEqual({ done: false, value: '{"b":2}' });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });

  it.each([
    ['not an array', '{"a":1}'],
    ['a truncated array', '[{"a":1},{"b":'],
    ['an unclosed array', '[{"a":1}'],
    ['text after the array', '[{"a":1}] x'],
  ])('throws on %s', async (_, text) => {
    await expect(collect([text])).rejects.toThrow(SyntaxError);
  });
});
