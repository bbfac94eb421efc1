import { cumulativeShare } from '../tokens.util';
import { KappaImageOutput } from './kappa-image';
import { KappaReply, KappaUsage } from './kappa-reply';

/** Fields every kappa response object carries. */
export interface KappaResponseMeta {
  modelVersion: string;
  responseId: string;
}

type JsonObject = Record<string, unknown>;

const HARM_CATEGORIES = [
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
];
const NEGLIGIBLE_RATINGS = HARM_CATEGORIES.map((category) => ({ category, probability: 'NEGLIGIBLE' }));
const BLOCKING_RATINGS = HARM_CATEGORIES.map((category) =>
  category === 'HARM_CATEGORY_DANGEROUS_CONTENT'
    ? { category, probability: 'HIGH', blocked: true }
    : { category, probability: 'NEGLIGIBLE' },
);

/** The `generateContent` body (upstreams.md §1.4). */
export function toKappaResponse(reply: KappaReply, meta: KappaResponseMeta): JsonObject {
  const parts: JsonObject[] = [];
  if (reply.thought !== undefined) parts.push({ text: reply.thought, thought: true });
  if (reply.pieces.length > 0) parts.push({ text: reply.pieces.join('') });
  if (reply.functionCall) parts.push({ functionCall: reply.functionCall });
  if (reply.image) parts.push(inlineImagePart(reply.image));
  return {
    candidates: [finalCandidate(parts, reply.finishReason)],
    usageMetadata: usageMetadataOf(reply.usage, reply.usage.candidates, true),
    ...meta,
  };
}

/**
 * The chunks of a stream: each carries only its new parts and the cumulative usage; the last one
 * carries the finish reason, the final usage and the image (images arrive whole, at the end).
 */
export function toKappaStreamChunks(reply: KappaReply, meta: KappaResponseMeta): JsonObject[] {
  if (reply.functionCall) return [toKappaResponse(reply, meta)];
  const count = Math.max(reply.pieces.length, 1);
  const chunks: JsonObject[] = [];
  for (let index = 0; index < count; index += 1) {
    const last = index === count - 1;
    const parts: JsonObject[] = [];
    if (index === 0 && reply.thought !== undefined) parts.push({ text: reply.thought, thought: true });
    if (index < reply.pieces.length) parts.push({ text: reply.pieces[index] });
    if (last && reply.image) parts.push(inlineImagePart(reply.image));
    const content = { parts, role: 'model' };
    chunks.push({
      candidates: [last ? finalCandidate(parts, reply.finishReason) : { content, index: 0 }],
      usageMetadata: usageMetadataOf(
        reply.usage,
        cumulativeShare(reply.usage.candidates, index + 1, count),
        last,
      ),
      ...meta,
    });
  }
  return chunks;
}

/** A prompt judged unsafe: HTTP 200, `promptFeedback.blockReason` and no candidates. */
export function toKappaPromptBlocked(
  usage: KappaUsage,
  meta: KappaResponseMeta,
  blockReason: string,
): JsonObject {
  return {
    promptFeedback: { blockReason, safetyRatings: BLOCKING_RATINGS },
    usageMetadata: usageMetadataOf(usage, 0, false),
    ...meta,
  };
}

/** An output judged unsafe: a candidate with a safety finish reason and no content. */
export function toKappaOutputBlocked(
  usage: KappaUsage,
  meta: KappaResponseMeta,
  finishReason: string,
): JsonObject {
  return {
    candidates: [{ finishReason, index: 0, safetyRatings: BLOCKING_RATINGS }],
    usageMetadata: usageMetadataOf(usage, 0, false),
    ...meta,
  };
}

function finalCandidate(parts: JsonObject[], finishReason: string): JsonObject {
  return { content: { parts, role: 'model' }, finishReason, index: 0, safetyRatings: NEGLIGIBLE_RATINGS };
}

function inlineImagePart(image: KappaImageOutput): JsonObject {
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

/** usageMetadata with the fields that are zero left out, as the wire does (upstreams.md §1.5). */
function usageMetadataOf(usage: KappaUsage, candidates: number, withCandidateDetails: boolean): JsonObject {
  const metadata: JsonObject = { promptTokenCount: usage.prompt };
  if (candidates > 0) metadata['candidatesTokenCount'] = candidates;
  metadata['totalTokenCount'] = usage.prompt + candidates + usage.thoughts;
  metadata['promptTokensDetails'] = usage.promptDetails;
  if (withCandidateDetails && candidates > 0) metadata['candidatesTokensDetails'] = usage.candidatesDetails;
  if (usage.thoughts > 0) metadata['thoughtsTokenCount'] = usage.thoughts;
  return metadata;
}
