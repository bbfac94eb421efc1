import { linkAbortController } from '../http/linked-abort.util';
import { RequestCancellation } from '../http/request-cancellation';
import { UpstreamError } from '../upstream-error';
import { createEventStream, type EventStreamRead } from './event-stream.util';
import { readServerSentEventReads } from './sse-reader';

async function* bodyOf(...reads: string[]): AsyncIterable<Buffer> {
  for (const read of reads) yield Buffer.from(read);
}

interface ChunkEvent {
  chunk: Record<string, unknown>;
  json: string;
}

/** `[DONE]` is wire-only, `fail` is an error event, anything else a JSON chunk. */
function toEvent(data: string): ChunkEvent | undefined {
  if (data === '[DONE]') return undefined;
  if (data === 'fail')
    throw new UpstreamError({ kind: 'overload', retryable: true, message: 'upstream failed' });
  return { chunk: JSON.parse(data) as Record<string, unknown>, json: data };
}

function streamOf(parent: RequestCancellation | undefined, ...reads: string[]) {
  return createEventStream({
    reads: readServerSentEventReads(bodyOf(...reads)),
    abortController: linkAbortController(parent),
    toEvent,
  });
}

async function collect(
  stream: AsyncIterable<EventStreamRead<ChunkEvent>>,
): Promise<EventStreamRead<ChunkEvent>[]> {
  const collected: EventStreamRead<ChunkEvent>[] = [];
  for await (const read of stream) collected.push(read);
  return collected;
}

describe('createEventStream', () => {
  it('yields each read with its exact bytes and its events; wire-only events have none', async () => {
    const reads = await collect(
      streamOf(undefined, 'data: {"a":1}\n\ndata: {"a', '":2}\n\ndata: [DONE]\n\n'),
    );

    expect(reads.map((read) => read.bytes.toString())).toEqual([
      'data: {"a":1}\n\n',
      'data: {"a":2}\n\ndata: [DONE]\n\n',
    ]);
    expect(reads.map((read) => read.frames.map((frame) => frame.event?.chunk))).toEqual([
      [{ a: 1 }],
      [{ a: 2 }, undefined],
    ]);
  });

  it('ends with the error event, after the bytes of the events before it in the same read', async () => {
    const stream = streamOf(undefined, 'data: {"a":1}\n\ndata: fail\n\ndata: {"a":2}\n\n');
    const reads: EventStreamRead<ChunkEvent>[] = [];

    await expect(
      (async () => {
        for await (const read of stream) reads.push(read);
      })(),
    ).rejects.toThrow('upstream failed');
    expect(reads.map((read) => read.bytes.toString())).toEqual(['data: {"a":1}\n\n']);
  });

  it('throws the reason once the parent signal aborts, and stops following the parent', async () => {
    const parent = new RequestCancellation();
    const stream = streamOf(parent, 'data: {"a":1}\n\n', 'data: {"a":2}\n\n');
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();

    parent.abort(new Error('client disconnected'));

    await expect(iterator.next()).rejects.toThrow('client disconnected');
    expect(parent.listenerCount('abort')).toBe(0);
  });

  it('stops following the parent signal once it ended without an abort', async () => {
    const parent = new RequestCancellation();
    await collect(streamOf(parent, 'data: {"a":1}\n\n', 'data: {"a":2}\n\n'));
    expect(parent.listenerCount('abort')).toBe(0);
  });

  it('iterates every stream with one shared generator function', () => {
    // A generator function per stream gives V8 a map per stream that keeps the finished stream alive
    // until a full collection; the generators of two streams share their prototype only without one.
    const first = streamOf(undefined)[Symbol.asyncIterator]();
    const second = streamOf(undefined)[Symbol.asyncIterator]();

    expect(Object.getPrototypeOf(first)).toBe(Object.getPrototypeOf(second));
  });
});
