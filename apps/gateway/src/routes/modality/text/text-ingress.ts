import type { TextDialect } from '@gateway/providers-core';

/** How the client wants a streamed answer framed. */
export type StreamFraming = 'native-sse' | 'native-json-array' | 'openai-sse';

/** A validated client request for text generation, in the client's own dialect. */
export interface TextIngress {
  dialect: TextDialect;
  route: string;
  /** Public model name, as the client wrote it. */
  model: string;
  request: Record<string, unknown>;
  /** The client's bytes, when `request` is still exactly what they encode. */
  rawBody?: Buffer;
  /** Absent for a non-streamed answer. */
  framing?: StreamFraming;
  /** OpenAI-style clients that asked for the final usage chunk. */
  includeUsage: boolean;
  /** Output cap the client set, for the hold estimate. */
  maxOutputTokens?: number;
  candidateCount: number;
  promptBytes: number;
}
