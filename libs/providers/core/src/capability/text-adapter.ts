import type { AdapterContext } from '../adapter-context';
import type { EventStream, EventStreamRead } from '../stream/event-stream.util';
import type { UpstreamErrorClassifier } from '../upstream-error';
import type { TokenUsage } from '../usage';

/** The two text wire dialects: the native contents/parts format and the OpenAI-style chat format. */
export type TextDialect = 'native' | 'openai';

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
  /** What the adapter changed or dropped on the way, for the client's warning header. */
  warnings: string[];
}

export interface TextStreamEvent {
  /** One parsed chunk object, in the adapter's dialect. */
  chunk: Record<string, unknown>;
  /** The chunk's JSON text exactly as the upstream sent it. */
  json: string;
  /** Usage reported by this chunk, if any; for native streams it is cumulative. */
  usage?: TokenUsage;
}

export type TextStreamRead = EventStreamRead<TextStreamEvent>;

/** An upstream text stream, read by read, with the exact bytes of each read. */
export type TextStream = EventStream<TextStreamEvent>;

/**
 * The text capability: generate and stream in one dialect. Members are declared as methods on
 * purpose: a method parameter is checked bivariantly, so an adapter typed for its own credentials
 * (`TextAdapter<PlainKeyCredentials>`) still fits the registry's `TextAdapter`; the registry only
 * ever hands it a connection its own definition parsed.
 */
export interface TextAdapter<Credentials = unknown, Settings = unknown> {
  readonly dialect: TextDialect;
  /** Throws UpstreamError for any non-2xx answer or transport failure. */
  generate(call: TextCall, context: AdapterContext<Credentials, Settings>): Promise<TextResponse>;
  /** Resolves once the upstream accepted the stream (2xx headers); failures before that throw UpstreamError. */
  stream(call: TextCall, context: AdapterContext<Credentials, Settings>): Promise<TextStream>;
  /** Maps an upstream error answer to one failure kind. */
  classify: UpstreamErrorClassifier;
}
