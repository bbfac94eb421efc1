import type { TextStreamEvent, TextStreamRead } from '@gateway/providers-core';
import type { StreamChunkConverter } from './dialect-bridge';
import type { StreamFramer } from './stream-framing';

export interface ReadRelay {
  converter: StreamChunkConverter;
  framer: StreamFramer;
  write(data: string | Uint8Array): Promise<void>;
  /** Sees every event of the stream, forwarded or converted, in order (usage, delivered text). */
  onEvent(event: TextStreamEvent): void;
}

// perf-machinery: relay-read (docs/performance-machinery.md)
/**
 * Writes one upstream read to the client. Consecutive events that the client gets as sent leave as
 * one slice of the upstream's own bytes, without being serialised again; the others are converted
 * and framed one by one; wire-only events (the upstream's done sentinel) are dropped, since the
 * framer writes the client's own ending.
 */
export async function relayRead(read: TextStreamRead, relay: ReadRelay): Promise<void> {
  let runStart = 0;
  let runEnd = 0;
  for (const { event, end } of read.frames) {
    if (event && relay.converter.forwardsAsSent(event)) {
      relay.onEvent(event);
      runEnd = end;
      continue;
    }
    if (runEnd > runStart) await relay.write(read.bytes.subarray(runStart, runEnd));
    if (event) {
      relay.onEvent(event);
      for (const json of relay.converter.push(event)) await relay.write(relay.framer.chunk(json));
    }
    runStart = runEnd = end;
  }
  if (runEnd > runStart) await relay.write(read.bytes.subarray(runStart, runEnd));
}
