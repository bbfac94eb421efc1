import { readServerSentEvents } from './sse-reader';

async function collect(chunks: Array<Buffer | string>): Promise<string[]> {
  async function* body(): AsyncIterable<Buffer> {
    for (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  }
  const events: string[] = [];
  for await (const event of readServerSentEvents(body())) events.push(event);
  return events;
}

const LF_STREAM =
  ': keep-alive comment\n' +
  'data: {"text":"héllo ✓ 😀"}\n\n' +
  'event: message\nid: 7\nretry: 1000\ndata:{"n":2}\n\n' +
  'data: line one\ndata: line two\ndata\n\n' +
  'event: ping\n\n' +
  'data: [DONE]\n\n';
const EXPECTED = ['{"text":"héllo ✓ 😀"}', '{"n":2}', 'line one\nline two\n', '[DONE]'];

describe('readServerSentEvents', () => {
  it.each([
    ['LF', LF_STREAM],
    ['CRLF', LF_STREAM.replace(/\n/g, '\r\n')],
    ['CR', LF_STREAM.replace(/\n/g, '\r')],
  ])(
    'yields the data of each event with %s line ends, skipping comments and data-less events',
    async (_, text) => {
      await expect(collect([text])).resolves.toEqual(EXPECTED);
    },
  );

  it.each([
    ['LF', LF_STREAM],
    ['CRLF', LF_STREAM.replace(/\n/g, '\r\n')],
    ['CR', LF_STREAM.replace(/\n/g, '\r')],
  ])('gives the same events with %s line ends split at every byte boundary', async (_, text) => {
    const bytes = Buffer.from(text);
    for (let split = 1; split < bytes.length; split += 1) {
      await expect(collect([bytes.subarray(0, split), bytes.subarray(split)])).resolves.toEqual(EXPECTED);
    }
    const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
    await expect(collect(oneByteChunks)).resolves.toEqual(EXPECTED);
  });

  it('keeps an empty data line as an empty event and strips only one space after the colon', async () => {
    await expect(collect(['data:\n\ndata:  two spaces\n\n'])).resolves.toEqual(['', ' two spaces']);
  });

  it('ignores a leading byte order mark', async () => {
    await expect(collect(['\uFEFFdata: x\n\n'])).resolves.toEqual(['x']);
  });

  it('delivers a last event whose blank line never came when the body ends cleanly', async () => {
    await expect(collect(['data: a\n\ndata: b'])).resolves.toEqual(['a', 'b']);
    await expect(collect(['data: a\r\n\r\ndata: b\r\n'])).resolves.toEqual(['a', 'b']);
  });

  it('yields an event as soon as it is complete, before the body ends', async () => {
    let releaseSecondChunk: () => void = () => undefined;
    const secondChunkAllowed = new Promise<void>((resolve) => (releaseSecondChunk = resolve));
    async function* body(): AsyncIterable<Buffer> {
      yield Buffer.from('data: first\r\n\r\ndata: sec');
      await secondChunkAllowed;
      yield Buffer.from('ond\r\n\r\n');
    }
    const iterator = readServerSentEvents(body())[Symbol.asyncIterator]();
    await expect(iterator.next()).resolves.toEqual({ done: false, value: 'first' });
    releaseSecondChunk();
    await expect(iterator.next()).resolves.toEqual({ done: false, value: 'second' });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
