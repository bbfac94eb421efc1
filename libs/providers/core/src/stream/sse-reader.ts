import { StringDecoder } from 'node:string_decoder';

const LINE_FEED = 10;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * Incremental Server-Sent Events parser. It keeps only the unterminated tail of the current line and
 * the data lines of the event being assembled, so memory is bounded by one event.
 */
export class ServerSentEventParser {
  private pendingLine = '';
  private eventData: string | undefined;
  /** The previous text ended with CR: a leading LF of the next text completes that CRLF. */
  private endedWithCarriageReturn = false;
  private started = false;

  /** Feeds decoded text; appends the data of every event completed by it to `events`. */
  push(text: string, events: string[]): void {
    if (text.length === 0) return;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    }
    let position = 0;
    if (this.endedWithCarriageReturn) {
      this.endedWithCarriageReturn = false;
      if (text.charCodeAt(0) === LINE_FEED) position = 1;
    }
    const buffer = this.pendingLine.length > 0 ? this.pendingLine + text.slice(position) : text;
    if (this.pendingLine.length > 0) position = 0;
    this.pendingLine = '';

    // Both terminators are searched once per occurrence, keeping the scan linear for long chunks.
    let nextLineFeed = buffer.indexOf('\n', position);
    let nextCarriageReturn = buffer.indexOf('\r', position);
    while (nextLineFeed !== -1 || nextCarriageReturn !== -1) {
      let lineEnd: number;
      let nextLineStart: number;
      if (nextCarriageReturn !== -1 && (nextLineFeed === -1 || nextCarriageReturn < nextLineFeed)) {
        lineEnd = nextCarriageReturn;
        if (lineEnd + 1 === buffer.length) {
          this.endedWithCarriageReturn = true;
          nextLineStart = lineEnd + 1;
        } else {
          nextLineStart = buffer.charCodeAt(lineEnd + 1) === LINE_FEED ? lineEnd + 2 : lineEnd + 1;
        }
      } else {
        lineEnd = nextLineFeed;
        nextLineStart = lineEnd + 1;
      }
      this.acceptLine(buffer, position, lineEnd, events);
      position = nextLineStart;
      if (nextLineFeed !== -1 && nextLineFeed < position) nextLineFeed = buffer.indexOf('\n', position);
      if (nextCarriageReturn !== -1 && nextCarriageReturn < position) {
        nextCarriageReturn = buffer.indexOf('\r', position);
      }
    }
    if (position < buffer.length) this.pendingLine = buffer.slice(position);
  }

  /**
   * Ends the input. The format says an event without its closing blank line is dropped; an upstream
   * that closes cleanly right after its last data line still meant it, so it is delivered.
   */
  finish(events: string[]): void {
    if (this.pendingLine.length > 0) {
      const line = this.pendingLine;
      this.pendingLine = '';
      this.acceptLine(line, 0, line.length, events);
    }
    if (this.eventData !== undefined) events.push(this.eventData);
    this.eventData = undefined;
  }

  private acceptLine(buffer: string, start: number, end: number, events: string[]): void {
    if (start === end) {
      if (this.eventData !== undefined) events.push(this.eventData);
      this.eventData = undefined;
      return;
    }
    let value: string;
    if (buffer.startsWith('data:', start)) {
      const valueStart = buffer.charCodeAt(start + 5) === 32 && start + 5 < end ? start + 6 : start + 5;
      value = buffer.slice(valueStart, end);
    } else if (end - start === 4 && buffer.startsWith('data', start)) {
      value = '';
    } else {
      // Comments (":…") and the event, id and retry fields carry nothing the adapters use.
      return;
    }
    this.eventData = this.eventData === undefined ? value : `${this.eventData}\n${value}`;
  }
}

/**
 * Yields the data of each event of a Server-Sent Events body (data lines joined by LF), accepting
 * CRLF, LF and CR line ends split anywhere across chunks.
 */
export async function* readServerSentEvents(body: AsyncIterable<Buffer>): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  const parser = new ServerSentEventParser();
  const events: string[] = [];
  for await (const chunk of body) {
    parser.push(decoder.write(chunk), events);
    if (events.length === 0) continue;
    for (const event of events) yield event;
    events.length = 0;
  }
  parser.push(decoder.end(), events);
  parser.finish(events);
  for (const event of events) yield event;
}
