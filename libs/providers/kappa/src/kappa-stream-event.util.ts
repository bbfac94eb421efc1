import {
  malformedStreamEventError,
  parseJsonObject,
  UpstreamError,
  type TextStreamEvent,
} from '@gateway/providers-core';
import { classifyKappaStreamError } from './kappa-error.classifier';
import { tokenUsageFromKappa } from './kappa-usage.util';

/**
 * One SSE event of `streamGenerateContent` (§1.6): a GenerateContentResponse chunk with cumulative
 * usage, or an error envelope once the stream had started.
 */
export function fromKappaStreamEvent(json: string): TextStreamEvent {
  const chunk = parseJsonObject(json);
  if (!chunk) throw malformedStreamEventError();
  if (chunk.error !== undefined) throw new UpstreamError(classifyKappaStreamError(chunk.error, json));
  const usage = tokenUsageFromKappa(chunk.usageMetadata);
  return usage ? { chunk, json, usage } : { chunk, json };
}
