import type { Writable } from 'node:stream';

type ResponseStream = Pick<Writable, 'cork' | 'uncork' | 'write' | 'once' | 'destroyed'>;

// perf-machinery: coalescing-writer (docs/performance-machinery.md)
/**
 * A writer for a streamed response that sends what one turn of the event loop wrote in one system
 * call. The events parsed from one upstream read are written in consecutive microtasks, and the
 * stream's ending (the last events, the client's own done sentinel, the closing chunk) follows in
 * ticks of that same turn when the upstream's last read carries its end; each write on its own was a
 * system call that woke the client (the profile's largest item on streams). The first write of a turn
 * corks the response and queues the uncork with setImmediate, which runs once the turn's I/O
 * callbacks, ticks and microtasks are done (with process.nextTick the ending left in a second call).
 * Nothing waits for more data: a lone chunk leaves in the turn it arrived.
 * Resolves when the response can take more (backpressure), or at once.
 */
export function createCoalescingWriter(
  response: ResponseStream,
): (data: string | Uint8Array) => Promise<void> {
  let corked = false;
  const uncork = () => {
    corked = false;
    response.uncork();
  };
  return async (data) => {
    if (data.length === 0 || response.destroyed) return;
    if (!corked) {
      corked = true;
      response.cork();
      setImmediate(uncork);
    }
    if (!response.write(data)) {
      await new Promise<void>((resolve) => response.once('drain', resolve).once('close', resolve));
    }
  };
}
