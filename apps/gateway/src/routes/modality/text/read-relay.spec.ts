import type { TextStreamEvent, TextStreamRead } from '@gateway/providers-core';
import type { StreamChunkConverter } from './dialect-bridge';
import { relayRead, type ReadRelay } from './read-relay';
import { createStreamFramer } from './stream-framing';

/** A read made of SSE frames, as the upstream's reader hands it over; `null` marks a wire-only event. */
function readOf(frames: Array<{ text: string; chunk: Record<string, unknown> | null }>): TextStreamRead {
  let end = 0;
  return {
    bytes: Buffer.from(frames.map((frame) => frame.text).join('')),
    frames: frames.map(({ text, chunk }) => {
      end += Buffer.byteLength(text);
      if (!chunk) return { end };
      const json = text.replace(/^data: /, '').trimEnd();
      return { event: { chunk, json }, end };
    }),
  };
}

function relayInto(converter: StreamChunkConverter) {
  const writes: string[] = [];
  const seen: TextStreamEvent[] = [];
  const relay: ReadRelay = {
    converter,
    framer: createStreamFramer('openai-sse'),
    write: async (data) => {
      writes.push(Buffer.isBuffer(data) ? `bytes:${data.toString()}` : `text:${String(data)}`);
    },
    onEvent: (event) => seen.push(event),
  };
  return { relay, writes, seen };
}

/** Forwards the chunks of model "m" as sent; rewrites the others to model "m". */
const modelConverter: StreamChunkConverter = {
  forwardsAsSent: (event) => event.chunk['model'] === 'm',
  push: (event) => [JSON.stringify({ ...event.chunk, model: 'm' })],
  finish: () => [],
};

describe('relayRead', () => {
  it('writes a read whose events all go as sent as one slice of the upstream bytes', async () => {
    const { relay, writes, seen } = relayInto(modelConverter);
    const read = readOf([
      { text: ': keep-alive\n\ndata: {"model":"m","n":1}\n\n', chunk: { model: 'm', n: 1 } },
      { text: 'data: {"model":"m","n":2}\n\n', chunk: { model: 'm', n: 2 } },
    ]);

    await relayRead(read, relay);

    expect(writes).toEqual([`bytes:${read.bytes.toString()}`]);
    expect(seen.map((event) => event.chunk['n'])).toEqual([1, 2]);
  });

  it('cuts the run at an event that needs converting and writes that event framed by the gateway', async () => {
    const { relay, writes, seen } = relayInto(modelConverter);
    await relayRead(
      readOf([
        { text: 'data: {"model":"m","n":1}\n\n', chunk: { model: 'm', n: 1 } },
        { text: 'data: {"model":"x","n":2}\n\n', chunk: { model: 'x', n: 2 } },
        { text: 'data: {"model":"m","n":3}\n\n', chunk: { model: 'm', n: 3 } },
      ]),
      relay,
    );

    expect(writes).toEqual([
      'bytes:data: {"model":"m","n":1}\n\n',
      'text:data: {"model":"m","n":2}\n\n',
      'bytes:data: {"model":"m","n":3}\n\n',
    ]);
    expect(seen.map((event) => event.chunk['n'])).toEqual([1, 2, 3]);
  });

  it("drops the upstream's wire-only events, such as its done sentinel", async () => {
    const { relay, writes, seen } = relayInto(modelConverter);
    await relayRead(
      readOf([
        { text: 'data: {"model":"m","n":1}\n\n', chunk: { model: 'm', n: 1 } },
        { text: 'data: [DONE]\n\n', chunk: null },
      ]),
      relay,
    );

    expect(writes).toEqual(['bytes:data: {"model":"m","n":1}\n\n']);
    expect(seen).toHaveLength(1);
  });

  it('converts every event when the client never gets the upstream bytes', async () => {
    const { relay, writes } = relayInto({
      forwardsAsSent: () => false,
      push: (event) => (event.chunk['n'] === 1 ? [] : [`{"converted":${String(event.chunk['n'])}}`]),
      finish: () => [],
    });
    await relayRead(
      readOf([
        { text: 'data: {"n":1}\n\n', chunk: { n: 1 } },
        { text: 'data: {"n":2}\n\n', chunk: { n: 2 } },
      ]),
      relay,
    );

    expect(writes).toEqual(['text:data: {"converted":2}\n\n']);
  });
});
