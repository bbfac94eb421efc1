import type { LinkedAbortController } from '../http/linked-abort.util';
import type { ServerSentEventRead } from './sse-reader';

/** One upstream event of a read, with where its bytes end in the read's bytes. */
export interface EventStreamFrame<Event> {
  /** Undefined for an event that only the wire needs (the done sentinel, an empty keep-alive). */
  event?: Event;
  /** Offset just past the event in `EventStreamRead.bytes`; it starts where the previous frame ended. */
  end: number;
}

/**
 * The events that one upstream read completed, with the exact bytes that carried them (framing and
 * comments included), so that a stream in the client's own wire can be forwarded byte for byte.
 */
export interface EventStreamRead<Event> {
  bytes: Buffer;
  frames: EventStreamFrame<Event>[];
}

/**
 * An upstream stream, read by read. Iteration throws UpstreamError for a mid-stream error event,
 * after yielding the events that came before it.
 */
export interface EventStream<Event> extends AsyncIterable<EventStreamRead<Event>> {
  /** Stops reading and closes the upstream connection. */
  abort(): void;
}

export interface EventStreamSource<Event> {
  /** The upstream's reads: the event texts each completed and the bytes that carried them. */
  reads: AsyncIterable<ServerSentEventRead>;
  /** Guards the upstream request: aborting it destroys the response body and its connection. */
  abortController: LinkedAbortController;
  /**
   * Maps one event text to a stream event; undefined marks a wire-only event (keep-alives,
   * sentinels). Throws UpstreamError for an error event.
   */
  toEvent(data: string): Event | undefined;
}

/**
 * An event stream over an upstream's reads. An error event ends the stream with its UpstreamError, once
 * the events before it in the same read have been yielded (their bytes only). After abort() (or an
 * abort of the call's signal) iteration ends by throwing the abort reason, so an aborted stream is
 * never mistaken for a complete one.
 */
export function createEventStream<Event>(source: EventStreamSource<Event>): EventStream<Event> {
  const { abortController } = source;
  return {
    abort: () => {
      abortController.abort();
      abortController.unlink();
    },
    [Symbol.asyncIterator]: () => iterateEventReads(source),
  };
}

// perf-machinery: event-reads-generator (docs/performance-machinery.md)
/**
 * Module-level on purpose: an async generator written as a method of the object above would be a new
 * generator function per stream, and V8 gives each one its own map for its generator objects. That map
 * lives in old space and points back at the function, so every finished stream's whole upstream
 * exchange survived until the next full collection: about 1 MB promoted per scavenge at 64 streams,
 * 200-245 MiB of RSS under stream load (docs/performance-analysis.md).
 */
async function* iterateEventReads<Event>(
  source: EventStreamSource<Event>,
): AsyncGenerator<EventStreamRead<Event>> {
  const { reads, abortController, toEvent } = source;
  const signal = abortController.signal;
  try {
    for await (const read of reads) {
      // The body may be fully buffered already, in which case aborting no longer interrupts reading.
      if (signal.aborted) throw signal.reason;
      const frames: EventStreamFrame<Event>[] = [];
      let failure: unknown;
      for (const { data, end } of read.frames) {
        try {
          frames.push({ event: toEvent(data), end });
        } catch (error) {
          failure = error;
          break;
        }
      }
      if (failure === undefined) {
        yield { bytes: read.bytes, frames };
        continue;
      }
      const lastBefore = frames.at(-1);
      if (lastBefore) yield { bytes: read.bytes.subarray(0, lastBefore.end), frames };
      throw failure;
    }
    if (signal.aborted) throw signal.reason;
  } finally {
    abortController.unlink();
  }
}
