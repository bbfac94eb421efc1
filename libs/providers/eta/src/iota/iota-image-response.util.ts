import {
  imageContentTypeOf,
  isJsonObject,
  malformedAnswerError,
  UpstreamError,
  type GeneratedImage,
  type ImageItemError,
  type JsonObject,
  type UpstreamFailure,
} from '@gateway/providers-core';
import { isEtaSensitiveContentCode } from '../eta-error.classifier';

/** The images of an iota answer and, in group mode, the items that failed. */
export interface IotaImages {
  images: GeneratedImage[];
  itemErrors: ImageItemError[];
}

/** The status of every answer read here: postForJsonObject hands on 2xx answers only. */
const SUCCESS_STATUS = 200;

/**
 * Reads `{"data":[{"url"|"b64_json","size"} | {"error":{"code","message"}}], …}` (upstreams.md §6.3)
 * tolerantly: an item that is neither an image nor an error is a failed item, not a failed answer. An
 * answer without any image is an UpstreamError (see wholeFailureOf).
 */
export function fromIotaResponse(payload: JsonObject): IotaImages {
  if (!Array.isArray(payload.data)) throw malformedAnswerError(SUCCESS_STATUS);
  const images: GeneratedImage[] = [];
  const itemErrors: ImageItemError[] = [];
  payload.data.forEach((item: unknown, index) => {
    const image = isJsonObject(item) ? imageOf(item) : undefined;
    if (image) images.push(image);
    else itemErrors.push({ index, failure: itemFailureOf(item) });
  });
  if (images.length === 0) throw new UpstreamError(wholeFailureOf(itemErrors));
  return { images, itemErrors };
}

/**
 * When no item is an image: content_policy when moderation stopped every item, else the first other
 * failure (it may pass on a retry or elsewhere); an empty list is the upstream misbehaving.
 */
function wholeFailureOf(itemErrors: ImageItemError[]): UpstreamFailure {
  const failures = itemErrors.map((itemError) => itemError.failure);
  return (
    failures.find((failure) => failure.kind !== 'content_policy') ??
    failures[0] ?? {
      kind: 'overload',
      retryable: true,
      httpStatus: SUCCESS_STATUS,
      message: 'upstream answered with no image',
    }
  );
}

function imageOf(item: JsonObject): GeneratedImage | undefined {
  const revisedPrompt = typeof item.revised_prompt === 'string' ? { revisedPrompt: item.revised_prompt } : {};
  if (typeof item.url === 'string' && item.url !== '')
    return { kind: 'url', url: item.url, ...revisedPrompt };
  if (typeof item.b64_json !== 'string') return undefined;
  const bytes = Buffer.from(item.b64_json, 'base64');
  const contentType = imageContentTypeOf(bytes);
  return contentType ? { kind: 'bytes', bytes, contentType, ...revisedPrompt } : undefined;
}

/**
 * A failed item: its own error (moderation is content_policy; anything else the upstream's trouble,
 * worth a retry), or an item the gateway cannot use.
 */
function itemFailureOf(item: unknown): UpstreamFailure {
  const error = isJsonObject(item) && isJsonObject(item.error) ? item.error : undefined;
  if (!error) {
    return { kind: 'overload', retryable: true, message: 'upstream answered an item without a usable image' };
  }
  const code = typeof error.code === 'string' ? error.code : undefined;
  const contentPolicy = isEtaSensitiveContentCode(code);
  return {
    kind: contentPolicy ? 'content_policy' : 'overload',
    retryable: !contentPolicy,
    message: typeof error.message === 'string' ? error.message : `image item ${code ?? 'failed'}`,
    upstreamCode: code,
  };
}
