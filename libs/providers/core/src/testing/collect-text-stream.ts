import type { TextStream, TextStreamEvent } from '../capability/text-adapter';

export interface CollectedTextStream {
  events: TextStreamEvent[];
  /** Every read's bytes, concatenated: what a byte-for-byte relay would have forwarded. */
  bytes: Buffer;
  error?: unknown;
}

/** Reads a stream to its end for a test: its events in order and the error that ended it, if any. */
export async function collectTextStream(stream: TextStream): Promise<CollectedTextStream> {
  const events: TextStreamEvent[] = [];
  const pieces: Buffer[] = [];
  try {
    for await (const read of stream) {
      pieces.push(read.bytes);
      for (const frame of read.frames) if (frame.event) events.push(frame.event);
    }
    return { events, bytes: Buffer.concat(pieces) };
  } catch (error) {
    return { events, bytes: Buffer.concat(pieces), error };
  }
}
