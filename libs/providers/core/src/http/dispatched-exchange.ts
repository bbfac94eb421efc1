import type { Dispatcher } from 'undici';
import type { UpstreamHttpResponse } from '../http-client';
import type { CancellationSignal } from './request-cancellation';
import { fromTransportError } from './transport-error.util';

/** Bytes kept for a reader that has not taken them before the connection is paused. */
const HIGH_WATER_BYTES = 64 * 1024;
/** At most this much of an unread body is read off to keep its connection; more, and it is closed. */
const DUMP_LIMIT_BYTES = 128 * 1024;

/** Why a body was closed before its end: its reader stopped, or a dump found more than it reads off. */
class BodyClosed extends Error {
  override readonly name = 'BodyClosed';
}

// perf-machinery: dispatched-exchange (docs/performance-machinery.md)
/**
 * One upstream exchange as undici's dispatch handler and, once its headers are in, the response the
 * adapters read. Why not undici's `request()`: its answer is a Node Readable (a stream state, an
 * EventEmitter, an async resource, listeners on the signal) that every whole answer pays for and only
 * the streams use; here a whole answer is the chunks kept until the end, and a stream iterates them.
 * A reader that falls HIGH_WATER_BYTES behind pauses the connection until it catches up.
 *
 * Transport errors and aborts reach the reader as `fromTransportError` maps them: the signal's reason
 * once the signal aborted, an UpstreamError for a failed or timed-out connection.
 */
export class DispatchedExchange implements Dispatcher.DispatchHandler, UpstreamHttpResponse {
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  readonly body: AsyncIterable<Buffer> = this;
  readonly head: Promise<UpstreamHttpResponse>;

  private controller: Dispatcher.DispatchController | undefined;
  private started = false;
  private chunks: Buffer[] = [];
  private bufferedBytes = 0;
  private ended = false;
  private failed = false;
  private failure: unknown = undefined;
  /** The one reader waiting for a chunk, the end or the failure (a body has one reader at a time). */
  private wake: (() => void) | undefined = undefined;
  /** A whole-body reader (bytes, text, dump) takes everything as it comes: the connection is never paused. */
  private collecting = false;
  /** Bytes dump() read off and dropped; -1 until dump() is called. */
  private discarded = -1;
  private resolveHead!: (response: UpstreamHttpResponse) => void;
  private rejectHead!: (error: unknown) => void;
  private readonly onAbort: (() => void) | undefined;

  constructor(private readonly signal: CancellationSignal | undefined) {
    this.head = new Promise((resolve, reject) => {
      this.resolveHead = resolve;
      this.rejectHead = reject;
    });
    if (signal !== undefined) {
      this.onAbort = () => this.abort(signal.reason);
      signal.addEventListener('abort', this.onAbort);
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal?.aborted) controller.abort(asError(this.signal.reason));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // 1xx informational answers come before the real one.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = headers;
    this.started = true;
    this.resolveHead(this);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.discarded >= 0) {
      this.discarded += chunk.length;
      if (this.discarded > DUMP_LIMIT_BYTES)
        controller.abort(new BodyClosed('an unread body too long to keep'));
      return;
    }
    this.chunks.push(chunk);
    this.bufferedBytes += chunk.length;
    if (!this.collecting && this.bufferedBytes > HIGH_WATER_BYTES) controller.pause();
    this.wakeReader();
  }

  onResponseEnd(): void {
    this.ended = true;
    this.forgetSignal();
    this.wakeReader();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  /** The body as text, a leading byte order mark left out (as undici's `text()` does). */
  async text(): Promise<string> {
    const bytes = await this.bytes();
    const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return bytes.toString('utf8', start);
  }

  async bytes(): Promise<Buffer> {
    this.collecting = true;
    this.controller?.resume();
    while (!this.ended) {
      this.throwIfFailed();
      await this.nextEvent();
    }
    this.throwIfFailed();
    const { chunks } = this;
    this.chunks = [];
    this.bufferedBytes = 0;
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  /** Frees the connection: what is kept is dropped and up to DUMP_LIMIT_BYTES more read off. Never throws. */
  async dump(): Promise<void> {
    this.chunks = [];
    this.bufferedBytes = 0;
    if (this.ended || this.failed) return;
    this.collecting = true;
    this.discarded = 0;
    this.controller?.resume();
    while (!this.ended && !this.failed) await this.nextEvent();
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return {
      next: async (): Promise<IteratorResult<Buffer>> => {
        for (;;) {
          const chunk = this.chunks.shift();
          if (chunk !== undefined) {
            this.bufferedBytes -= chunk.length;
            if (this.bufferedBytes <= HIGH_WATER_BYTES) this.controller?.resume();
            return { done: false, value: chunk };
          }
          this.throwIfFailed();
          if (this.ended) return { done: true, value: undefined };
          this.controller?.resume();
          await this.nextEvent();
        }
      },
      // A reader that stops before the end closes the connection: the rest of the body is not read.
      return: async (): Promise<IteratorResult<Buffer>> => {
        this.chunks = [];
        this.bufferedBytes = 0;
        if (!this.ended && !this.failed) this.abort(new BodyClosed('the reader stopped before the end'));
        return { done: true, value: undefined };
      },
    };
  }

  /** Ends the exchange: the connection is closed, and a request not yet on one fails at once. */
  private abort(reason: unknown): void {
    if (this.ended || this.failed) return;
    if (this.controller) this.controller.abort(asError(reason));
    else this.fail(reason);
  }

  private fail(error: unknown): void {
    this.failed = true;
    this.failure = fromTransportError(error, this.signal);
    this.forgetSignal();
    if (!this.started) this.rejectHead(this.failure);
    this.wakeReader();
  }

  private nextEvent(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  private wakeReader(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private throwIfFailed(): void {
    if (this.failed) throw this.failure;
  }

  private forgetSignal(): void {
    if (this.onAbort) this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/** undici's controller aborts with an Error; a signal's reason may be anything. */
function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason), { cause: reason });
}
