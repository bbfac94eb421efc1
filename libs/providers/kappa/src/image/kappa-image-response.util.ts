import {
  isJsonObject,
  UpstreamError,
  type GeneratedImage,
  type JsonObject,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { promptBlockReasonOf } from '../kappa-usage.util';

/**
 * Finish reasons of a candidate the upstream withheld for policy (upstreams.md §1.4): safety and
 * prohibited-content verdicts on text or image, blocklists, personal data, recitation.
 */
const CONTENT_POLICY_FINISH_REASONS: ReadonlySet<string> = new Set([
  'SAFETY',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
  'RECITATION',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Text of an image-less answer quoted in the client's error, cut to this many characters. */
const QUOTED_TEXT_LIMIT = 200;

/**
 * The images of a generateContent answer: every inlineData part of an image type in the candidates'
 * content, thought parts excepted (a thinking model's drafts). An answer without an image throws:
 * content_policy for a blocked prompt (promptFeedback.blockReason) or a candidate withheld for policy,
 * bad_request (not worth a retry elsewhere) when the model answered with text only.
 */
export function fromKappaImageResponse(payload: JsonObject): GeneratedImage[] {
  const candidates = Array.isArray(payload.candidates) ? payload.candidates.filter(isJsonObject) : [];
  const images = candidates.flatMap(imagesOfCandidate);
  if (images.length > 0) return images;
  throw new UpstreamError(noImageFailure(payload, candidates));
}

function imagesOfCandidate(candidate: JsonObject): GeneratedImage[] {
  return partsOf(candidate).flatMap((part): GeneratedImage[] => {
    const inlineData = part.inlineData ?? part.inline_data;
    if (part.thought === true || !isJsonObject(inlineData)) return [];
    const mimeType = inlineData.mimeType ?? inlineData.mime_type;
    if (
      typeof mimeType !== 'string' ||
      !mimeType.startsWith('image/') ||
      typeof inlineData.data !== 'string'
    ) {
      return [];
    }
    return [{ kind: 'bytes', bytes: Buffer.from(inlineData.data, 'base64'), contentType: mimeType }];
  });
}

function partsOf(candidate: JsonObject): JsonObject[] {
  const content = candidate.content;
  return isJsonObject(content) && Array.isArray(content.parts) ? content.parts.filter(isJsonObject) : [];
}

function noImageFailure(payload: JsonObject, candidates: JsonObject[]): UpstreamFailure {
  const finishReasons = candidates
    .map((candidate) => candidate.finishReason)
    .filter((reason): reason is string => typeof reason === 'string');
  const blockReason =
    promptBlockReasonOf(payload) ?? finishReasons.find((reason) => CONTENT_POLICY_FINISH_REASONS.has(reason));
  if (blockReason) {
    return {
      kind: 'content_policy',
      retryable: false,
      httpStatus: 200,
      message: `the upstream blocked the request (${blockReason})`,
      upstreamCode: blockReason,
    };
  }
  const [finishReason] = finishReasons;
  const text = candidates
    .flatMap(partsOf)
    .filter((part) => part.thought !== true && typeof part.text === 'string')
    .map((part) => part.text)
    .join(' ')
    .slice(0, QUOTED_TEXT_LIMIT);
  return {
    kind: 'bad_request',
    retryable: false,
    httpStatus: 200,
    message: `the model answered without an image${finishReason ? ` (${finishReason})` : ''}${text ? `: ${text}` : ''}`,
    upstreamCode: finishReason,
  };
}
