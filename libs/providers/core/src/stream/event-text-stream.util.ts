import type { LinkedAbortController } from '../http/linked-abort.util';
import type { TextStream, TextStreamEvent } from '../text-adapter';

export interface EventTextStreamSource {
  /** The upstream's event texts (SSE data or JSON array elements), in order. */
  events: AsyncIterable<string>;
  /** Guards the upstream request: aborting it destroys the response body and its connection. */
  abortController: LinkedAbortController;
  /**
   * Maps one event text to a stream event; undefined skips it (keep-alives, sentinels). Throws
   * UpstreamError for an error event.
   */
  toEvent(data: string): TextStreamEvent | undefined;
}

/**
 * A TextStream over an upstream's event texts. After abort() (or an abort of the call's signal)
 * iteration ends by throwing the abort reason, so an aborted stream is never mistaken for a complete one.
 */
export function createEventTextStream(source: EventTextStreamSource): TextStream {
  const { events, abortController, toEvent } = source;
  const signal = abortController.signal;
  return {
    abort: () => {
      abortController.abort();
      abortController.unlink();
    },
    async *[Symbol.asyncIterator]() {
      try {
        for await (const data of events) {
          // The body may be fully buffered already, in which case aborting no longer interrupts reading.
          if (signal.aborted) throw signal.reason;
          const event = toEvent(data);
          if (event) yield event;
        }
        if (signal.aborted) throw signal.reason;
      } finally {
        abortController.unlink();
      }
    },
  };
}
