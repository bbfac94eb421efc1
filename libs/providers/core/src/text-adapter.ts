import type { Clock } from './clock';
import type { UpstreamHttpClient } from './http-client';
import type { CancellationSignal } from './http/request-cancellation';
import type { UpstreamFailure } from './upstream-error';
import type { TokenUsage } from './usage';

/** The two text wire dialects: the native contents/parts format and the OpenAI-style chat format. */
export type TextDialect = 'native' | 'openai';

export interface AdapterLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/** What an adapter knows of the channel it calls: a row's connection data, secret decrypted. */
export interface ChannelConnection {
  baseUrl: string;
  secret: string;
}

export interface AdapterContext {
  channel: ChannelConnection;
  http: UpstreamHttpClient;
  clock: Clock;
  logger: AdapterLogger;
  /** Aborted when the client goes away or the request deadline passes. */
  signal?: CancellationSignal;
  /** Time allowed until the upstream's response headers arrive. */
  headersTimeoutMs?: number;
}

export interface TextCall {
  /** Upstream model id (after the channel's model mapping). */
  upstreamModel: string;
  /** The request in the adapter's own dialect. */
  request: Record<string, unknown>;
  /**
   * The client's original bytes when `request` is exactly what the client sent in the adapter's
   * dialect: the adapter forwards them untouched unless the wire needs a rewrite.
   */
  rawBody?: Buffer;
}

export interface TextResponse {
  /** The upstream body, in the adapter's dialect. */
  body: Buffer;
  payload: Record<string, unknown>;
  usage?: TokenUsage;
  /** Set when the upstream refused the prompt itself inside a 2xx answer (native promptFeedback). */
  promptBlockReason?: string;
}

export interface TextStreamEvent {
  /** One parsed chunk object, in the adapter's dialect. */
  chunk: Record<string, unknown>;
  /** The chunk's JSON text exactly as the upstream sent it. */
  json: string;
  /** Usage reported by this chunk, if any; for native streams it is cumulative. */
  usage?: TokenUsage;
}

/** One upstream event of a read, with where its bytes end in the read's bytes. */
export interface TextStreamFrame {
  /** Undefined for an event that only the wire needs (the done sentinel, an empty keep-alive). */
  event?: TextStreamEvent;
  /** Offset just past the event in `TextStreamRead.bytes`; it starts where the previous frame ended. */
  end: number;
}

/**
 * The events that one upstream read completed, with the exact bytes that carried them (framing and
 * comments included), so that a same-dialect stream can be forwarded byte for byte.
 */
export interface TextStreamRead {
  bytes: Buffer;
  frames: TextStreamFrame[];
}

/**
 * An upstream stream, read by read. Iteration throws UpstreamError for a mid-stream error event,
 * after yielding the events that came before it.
 */
export interface TextStream extends AsyncIterable<TextStreamRead> {
  /** Stops reading and closes the upstream connection. */
  abort(): void;
}

export interface TextAdapter {
  readonly dialect: TextDialect;
  /** Throws UpstreamError for any non-2xx answer or transport failure. */
  generate(call: TextCall, context: AdapterContext): Promise<TextResponse>;
  /** Resolves once the upstream accepted the stream (2xx headers); failures before that throw UpstreamError. */
  stream(call: TextCall, context: AdapterContext): Promise<TextStream>;
  /** Maps an upstream error answer to one failure kind. */
  classify(
    status: number,
    body: string,
    headers: Record<string, string | string[] | undefined>,
  ): UpstreamFailure;
}
