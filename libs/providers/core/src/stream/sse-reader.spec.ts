import { readServerSentEventReads, type ServerSentEventRead } from './sse-reader';

async function readAll(chunks: Array<Buffer | string>): Promise<ServerSentEventRead[]> {
  async function* body(): AsyncIterable<Buffer> {
    for (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
  }
  const reads: ServerSentEventRead[] = [];
  for await (const read of readServerSentEventReads(body())) reads.push(read);
  return reads;
}

async function collect(chunks: Array<Buffer | string>): Promise<string[]> {
  return (await readAll(chunks)).flatMap((read) => read.frames.map((frame) => frame.data));
}

/** Each event's own bytes, cut from its read at the frame offsets. */
function eventBytes(reads: ServerSentEventRead[]): string[] {
  return reads.flatMap((read) =>
    read.frames.map((frame, index) =>
      read.bytes.toString('utf8', index === 0 ? 0 : read.frames[index - 1].end, frame.end),
    ),
  );
}

const LF_STREAM =
  ': keep-alive comment\n' +
  'data: {"text":"héllo ✓ 😀"}\n\n' +
  'event: message\nid: 7\nretry: 1000\ndata:{"n":2}\n\n' +
  'data: line one\ndata: line two\ndata\n\n' +
  'event: ping\n\n' +
  'data: [DONE]\n\n';
const EXPECTED = ['{"text":"héllo ✓ 😀"}', '{"n":2}', 'line one\nline two\n', '[DONE]'];
const LINE_ENDS = [
  ['LF', LF_STREAM],
  ['CRLF', LF_STREAM.replace(/\n/g, '\r\n')],
  ['CR', LF_STREAM.replace(/\n/g, '\r')],
];

describe('readServerSentEventReads', () => {
  it.each(LINE_ENDS)(
    'yields the data of each event with %s line ends, skipping comments and data-less events',
    async (_, text) => {
      await expect(collect([text])).resolves.toEqual(EXPECTED);
    },
  );

  it.each(LINE_ENDS)(
    'gives the same events with %s line ends split at every byte boundary',
    async (_, text) => {
      const bytes = Buffer.from(text);
      for (let split = 1; split < bytes.length; split += 1) {
        await expect(collect([bytes.subarray(0, split), bytes.subarray(split)])).resolves.toEqual(EXPECTED);
      }
      const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
      await expect(collect(oneByteChunks)).resolves.toEqual(EXPECTED);
    },
  );

  it('hands over every byte of the complete events exactly once, however the reads split them', async () => {
    const text = LF_STREAM.replace(/\n/g, '\r\n');
    const bytes = Buffer.from(text);
    for (let split = 1; split < bytes.length; split += 1) {
      const reads = await readAll([bytes.subarray(0, split), bytes.subarray(split)]);
      // A CR that ends a read completes its line at once; the LF that follows it in the last read
      // closes no event, so it is not handed over (the stream stays valid: CR alone ends a line).
      const expected = split === bytes.length - 1 ? text.slice(0, -1) : text;
      expect(Buffer.concat(reads.map((read) => read.bytes)).toString()).toBe(expected);
    }
  });

  it('cuts each event at its closing blank line, keeping the comments and fields before it', async () => {
    const reads = await readAll(['data: a\n\n: ping\n\nid: 1\ndata: b\n\ndata: c\n']);
    expect(eventBytes(reads)).toEqual(['data: a\n\n', ': ping\n\nid: 1\ndata: b\n\n', 'data: c\n']);
  });

  it('yields nothing for a read that completes no event and holds its bytes for the next one', async () => {
    const reads = await readAll(['data: {"a":', '1}\r\n', '\r\ndata: x']);
    expect(reads.map((read) => read.bytes.toString())).toEqual(['data: {"a":1}\r\n\r\n', 'data: x']);
    expect(reads.map((read) => read.frames.map((frame) => frame.data))).toEqual([['{"a":1}'], ['x']]);
  });

  it('keeps an empty data line as an empty event and strips only one space after the colon', async () => {
    await expect(collect(['data:\n\ndata:  two spaces\n\n'])).resolves.toEqual(['', ' two spaces']);
  });

  it('ignores a leading byte order mark, also when it is split across reads', async () => {
    await expect(collect(['\uFEFFdata: x\n\n'])).resolves.toEqual(['x']);
    const bytes = Buffer.from('\uFEFFdata: x\n\n');
    await expect(collect([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)])).resolves.toEqual([
      'x',
    ]);
  });

  it('delivers a last event whose blank line never came when the body ends cleanly', async () => {
    await expect(collect(['data: a\n\ndata: b'])).resolves.toEqual(['a', 'b']);
    await expect(collect(['data: a\r\n\r\ndata: b\r\n'])).resolves.toEqual(['a', 'b']);
  });

  it('yields a read as soon as it completes an event, before the body ends', async () => {
    let releaseSecondChunk: () => void = () => undefined;
    const secondChunkAllowed = new Promise<void>((resolve) => (releaseSecondChunk = resolve));
    async function* body(): AsyncIterable<Buffer> {
      yield Buffer.from('data: first\r\n\r\ndata: sec');
      await secondChunkAllowed;
      yield Buffer.from('ond\r\n\r\n');
    }
    const iterator = readServerSentEventReads(body())[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    expect(first.value?.frames).toEqual([{ data: 'first', end: 15 }]);
    releaseSecondChunk();
    const second = await iterator.next();
    expect(second.value?.bytes.toString()).toBe('data: second\r\n\r\n');
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
  });
});
