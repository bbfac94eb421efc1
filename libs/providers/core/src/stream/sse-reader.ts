const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);
const DATA_FIELD = Buffer.from('data');
const COLON = 0x3a;
const SPACE = 0x20;
const NO_BYTES = Buffer.alloc(0);

/** One complete event: its data (data lines joined by LF) and where its bytes end in the read's bytes. */
export interface ServerSentEventFrame {
  data: string;
  /** Offset just past the event's closing blank line; the event starts where the previous one ended. */
  end: number;
}

/** What one upstream read completed: the exact bytes of those events and the events themselves. */
export interface ServerSentEventRead {
  /** The upstream's bytes from the end of the previous event to the end of the last one here. */
  bytes: Buffer;
  frames: ServerSentEventFrame[];
}

/**
 * Incremental Server-Sent Events parser over bytes. Line ends (CRLF, LF or CR) are ASCII, so lines
 * are found in the raw bytes and only data values are decoded, each from its complete line: a
 * multi-byte character split across reads decodes correctly. The bytes of an event still being
 * received are held as the reads that carried them (no copying) until the event completes, so a
 * caller can forward complete events byte for byte.
 */
export class ServerSentEventParser {
  /** Reads (or their tails) since the last complete event, before the current one. */
  private held: Buffer[] = [];
  /** The unterminated line at the end of the held bytes, as pieces. */
  private partialLine: Buffer[] = [];
  private eventData: string | undefined;
  /** The previous read ended with CR: a leading LF of the next read completes that CRLF. */
  private endedWithCarriageReturn = false;
  private started = false;

  /** Feeds one read; returns the events it completed, or undefined when it completed none. */
  push(chunk: Buffer): ServerSentEventRead | undefined {
    if (chunk.length === 0) return undefined;
    let position = 0;
    if (this.endedWithCarriageReturn) {
      this.endedWithCarriageReturn = false;
      if (chunk[0] === LINE_FEED) position = 1;
    }
    const frames: ServerSentEventFrame[] = [];
    const heldLength = this.held.reduce((sum, piece) => sum + piece.length, 0);
    let lastEventEnd = -1;
    // Both terminators are searched once per occurrence, keeping the scan linear for long reads.
    let nextLineFeed = chunk.indexOf(LINE_FEED, position);
    let nextCarriageReturn = chunk.indexOf(CARRIAGE_RETURN, position);
    while (nextLineFeed !== -1 || nextCarriageReturn !== -1) {
      let lineEnd: number;
      let nextLineStart: number;
      if (nextCarriageReturn !== -1 && (nextLineFeed === -1 || nextCarriageReturn < nextLineFeed)) {
        lineEnd = nextCarriageReturn;
        if (lineEnd + 1 === chunk.length) this.endedWithCarriageReturn = true;
        nextLineStart = chunk[lineEnd + 1] === LINE_FEED ? lineEnd + 2 : lineEnd + 1;
      } else {
        lineEnd = nextLineFeed;
        nextLineStart = lineEnd + 1;
      }
      const data = this.acceptLine(this.completeLine(chunk.subarray(position, lineEnd)));
      if (data !== undefined) {
        frames.push({ data, end: heldLength + nextLineStart });
        lastEventEnd = nextLineStart;
      }
      position = nextLineStart;
      if (nextLineFeed !== -1 && nextLineFeed < position) nextLineFeed = chunk.indexOf(LINE_FEED, position);
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
        nextCarriageReturn = chunk.indexOf(CARRIAGE_RETURN, position);
      }
    }
    if (position < chunk.length) this.partialLine.push(chunk.subarray(position));
    if (lastEventEnd === -1) {
      this.held.push(chunk);
      return undefined;
    }
    const bytes = heldLength === 0 ? chunk : Buffer.concat([...this.held, chunk]);
    this.held = lastEventEnd < chunk.length ? [chunk.subarray(lastEventEnd)] : [];
    return { bytes: bytes.subarray(0, heldLength + lastEventEnd), frames };
  }

  /**
   * Ends the input. The format says an event without its closing blank line is dropped; an upstream
   * that closes cleanly right after its last data line still meant it, so it is delivered.
   */
  finish(): ServerSentEventRead | undefined {
    let data: string | undefined;
    if (this.partialLine.length > 0) data = this.acceptLine(this.completeLine(NO_BYTES));
    if (data === undefined) data = this.eventData;
    this.eventData = undefined;
    const bytes = Buffer.concat(this.held);
    this.held = [];
    return data === undefined ? undefined : { bytes, frames: [{ data, end: bytes.length }] };
  }

  private completeLine(lastPiece: Buffer): Buffer {
    let line = lastPiece;
    if (this.partialLine.length > 0) {
      line = Buffer.concat([...this.partialLine, lastPiece]);
      this.partialLine = [];
    }
    if (!this.started) {
      this.started = true;
      if (line.subarray(0, 3).equals(BYTE_ORDER_MARK)) return line.subarray(3);
    }
    return line;
  }

  /** Applies one line; returns the event's data when the line is the blank line that completes one. */
  private acceptLine(line: Buffer): string | undefined {
    if (line.length === 0) {
      const data = this.eventData;
      this.eventData = undefined;
      return data;
    }
    // Comments (":…") and the event, id and retry fields carry nothing the adapters use.
    if (!line.subarray(0, 4).equals(DATA_FIELD)) return undefined;
    let value: string;
    if (line.length === 4) value = '';
    else if (line[4] !== COLON) return undefined;
    else value = line.toString('utf8', line[5] === SPACE ? 6 : 5);
    this.eventData = this.eventData === undefined ? value : `${this.eventData}\n${value}`;
    return undefined;
  }
}

/**
 * Yields, per upstream read that completed at least one event, those events and the bytes that
 * carried them, accepting CRLF, LF and CR line ends split anywhere across reads.
 */
export async function* readServerSentEventReads(
  body: AsyncIterable<Buffer>,
): AsyncIterable<ServerSentEventRead> {
  const parser = new ServerSentEventParser();
  for await (const chunk of body) {
    const read = parser.push(chunk);
    if (read) yield read;
  }
  const last = parser.finish();
  if (last) yield last;
}
