import type { Writable } from 'node:stream';

type ResponseStream = Pick<Writable, 'cork' | 'uncork' | 'write' | 'once' | 'destroyed'>;

/**
 * A writer for a streamed response that sends what one turn of the event loop wrote in one system
 * call. The events parsed from one upstream read are written in consecutive microtasks; each write on
 * its own was a system call that woke the client (the profile's largest item on streams). The first
 * write of a turn corks the response and queues the uncork with process.nextTick, which runs once
 * those microtasks are done. Nothing waits for more data: a lone chunk leaves in the turn it arrived.
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
      process.nextTick(uncork);
    }
    if (!response.write(data)) {
      await new Promise<void>((resolve) => response.once('drain', resolve).once('close', resolve));
    }
  };
}
