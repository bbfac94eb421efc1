import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createCoalescingWriter } from './coalescing-writer';

/** A stream that records each batch it was asked to send, as a socket's writev would. */
function recordingStream(highWaterMark = 16_384) {
  const batches: string[][] = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      batches.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      batches.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, batches };
}

describe('createCoalescingWriter', () => {
  it('sends the writes of one turn, made in successive microtasks, as one batch', async () => {
    const { stream, batches } = recordingStream();
    const write = createCoalescingWriter(stream);

    await write('data: 1\n\n');
    await write('data: 2\n\n');
    await write('data: 3\n\n');
    await nextTurn();

    expect(batches).toEqual([['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']]);
  });

  it('keeps the writes of later ticks of the same turn in that batch, as a stream ending is', async () => {
    const { stream, batches } = recordingStream();
    const write = createCoalescingWriter(stream);

    await write('data: last\n\n');
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await write('data: [DONE]\n\n');
    await nextTurn();

    expect(batches).toEqual([['data: last\n\n', 'data: [DONE]\n\n']]);
  });

  it('sends a write of a later turn on its own, without waiting for more', async () => {
    const { stream, batches } = recordingStream();
    const write = createCoalescingWriter(stream);

    await write('first');
    await nextTurn();
    expect(batches).toEqual([['first']]);

    await write('second');
    await nextTurn();
    expect(batches).toEqual([['first'], ['second']]);
  });

  it('skips empty text and a destroyed response', async () => {
    const { stream, batches } = recordingStream();
    const write = createCoalescingWriter(stream);

    await write('');
    stream.destroy();
    await write('late');
    await nextTurn();

    expect(batches).toEqual([]);
  });

  it('waits for drain when the response is full, and resolves once it is sent', async () => {
    const { stream, batches } = recordingStream(4);
    const write = createCoalescingWriter(stream);

    await write('more than four bytes');

    expect(batches).toEqual([['more than four bytes']]);
  });
});
