import {
  malformedStreamEventError,
  parseJsonObject,
  UpstreamError,
  type TextStreamEvent,
} from '@gateway/providers-core';
import { classifyCompatStreamError } from './compat-error.classifier';
import { tokenUsageFromCompat } from './compat-usage.util';

/** Terminates every OpenAI-style stream (§2.2); it is not JSON. */
const DONE_SENTINEL = '[DONE]';

/**
 * One SSE event of a streamed chat completion: a chunk, the usage chunk, `[DONE]` (skipped: reading
 * goes on to the end of the body so the connection returns to the pool) or an error envelope.
 */
export function fromCompatStreamEvent(json: string): TextStreamEvent | undefined {
  if (json === DONE_SENTINEL || json.length === 0) return undefined;
  const chunk = parseJsonObject(json);
  if (!chunk) throw malformedStreamEventError();
  if (chunk.error !== undefined && chunk.error !== null) {
    throw new UpstreamError(classifyCompatStreamError(chunk.error, json));
  }
  const usage = tokenUsageFromCompat(chunk.usage);
  return usage ? { chunk, json, usage } : { chunk, json };
}
