/** One frame of a `text/event-stream`: an event, or a comment line (heartbeat). */
export type SseFrame =
  | { kind: 'event'; id: string | undefined; event: string; data: string }
  | { kind: 'comment'; text: string }
  | { kind: 'retry'; ms: number };

export interface OpenedEventStream {
  status: number;
  headers: Headers;
  /** The next frame, or undefined once the server ended the stream. */
  next(): Promise<SseFrame | undefined>;
  /** Drops the connection, as a client that loses its network does. */
  drop(): void;
  /** Body text of an answer that is not a stream (an error). */
  text(): Promise<string>;
}

/**
 * A minimal EventSource-like reader over fetch: frames as the server wrote them, so that a test sees
 * comments and ids exactly, and controls reconnection (Last-Event-ID) itself.
 */
export async function openEventStream(
  url: string,
  key: string,
  lastEventId?: string,
): Promise<OpenedEventStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const response = await fetch(url, { headers, signal: controller.signal });
  const decoder = new TextDecoder();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let buffer = '';
  let done = false;
  const next = async (): Promise<SseFrame | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        return frameOf(block);
      }
      reader ??= response.body?.getReader();
      if (done || !reader) return undefined;
      const read = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (read.done) {
        done = true;
        continue;
      }
      buffer += decoder.decode(read.value, { stream: true });
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    next,
    drop: () => controller.abort(),
    text: () => response.text(),
  };
}

function frameOf(block: string): SseFrame {
  if (block.startsWith(':')) return { kind: 'comment', text: block.slice(1).trim() };
  const fields = new Map<string, string>();
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
  }
  if (fields.has('retry')) return { kind: 'retry', ms: Number(fields.get('retry')) };
  return {
    kind: 'event',
    id: fields.get('id'),
    event: fields.get('event') ?? 'message',
    data: fields.get('data') ?? '',
  };
}

/** The events of a stream until it ends (or `until` says stop), comments left out. */
export async function eventsOf(
  stream: OpenedEventStream,
  until: (events: Array<Extract<SseFrame, { kind: 'event' }>>) => boolean = () => false,
): Promise<Array<Extract<SseFrame, { kind: 'event' }>>> {
  const events: Array<Extract<SseFrame, { kind: 'event' }>> = [];
  for (let frame = await stream.next(); frame; frame = await stream.next()) {
    if (frame.kind !== 'event') continue;
    events.push(frame);
    if (until(events)) break;
  }
  return events;
}
