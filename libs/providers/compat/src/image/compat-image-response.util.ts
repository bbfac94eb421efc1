import {
  countFrom,
  imageContentTypeOf,
  isJsonObject,
  UpstreamError,
  type GeneratedImage,
  type ImageGenerationCall,
  type ImageResult,
  type JsonObject,
  type TokenUsage,
  type Usage,
} from '@gateway/providers-core';
import { compatImagePriceTier } from './compat-image-price-tier.util';

/** `output_format` values of img-*, for bytes whose header does not say their type. */
const CONTENT_TYPES_BY_OUTPUT_FORMAT: ReadonlyMap<unknown, string> = new Map([
  ['png', 'image/png'],
  ['jpeg', 'image/jpeg'],
  ['webp', 'image/webp'],
]);

/** The type of Base64 image bytes, read from the bytes; `output_format` (img-*) when they do not say. */
function contentTypeOf(bytes: Buffer, outputFormat: unknown): string {
  return (
    imageContentTypeOf(bytes) ??
    CONTENT_TYPES_BY_OUTPUT_FORMAT.get(outputFormat) ??
    'application/octet-stream'
  );
}

/** One `data[]` item: `url` or `b64_json`, with `revised_prompt` when the upstream rewrote it. */
function imageOf(item: unknown, outputFormat: unknown): GeneratedImage | undefined {
  if (!isJsonObject(item)) return undefined;
  const revised = typeof item.revised_prompt === 'string' ? { revisedPrompt: item.revised_prompt } : {};
  if (typeof item.b64_json === 'string' && item.b64_json !== '') {
    const bytes = Buffer.from(item.b64_json, 'base64');
    return { kind: 'bytes', bytes, contentType: contentTypeOf(bytes, outputFormat), ...revised };
  }
  if (typeof item.url === 'string' && item.url !== '') return { kind: 'url', url: item.url, ...revised };
  return undefined;
}

/** `img-*` report tokens (`input_tokens`, `output_tokens`); the image count is what billing prices. */
function imageTokenUsageOf(usage: unknown): TokenUsage | undefined {
  if (!isJsonObject(usage)) return undefined;
  const inputTokens = countFrom(usage.input_tokens);
  const outputTokens = countFrom(usage.output_tokens);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  return { inputTokens: inputTokens ?? 0, outputTokens: outputTokens ?? 0 };
}

const METADATA_FIELDS = ['background', 'output_format', 'quality', 'size'] as const;

/** What `img-*` say about the image they made, handed to the client as the channel's metadata. */
function metadataOf(payload: JsonObject): JsonObject | undefined {
  const metadata: JsonObject = {};
  for (const field of METADATA_FIELDS) {
    if (typeof payload[field] === 'string') metadata[field] = payload[field];
  }
  return Object.keys(metadata).length > 0 ? metadata : undefined;
}

/**
 * The answer of §2.3, read tolerantly: items without an image are skipped, and an answer without any
 * image is the upstream misbehaving (retryable elsewhere). The images are priced at the call's tier,
 * the one the hold was taken at.
 */
export function fromCompatImageResponse(payload: JsonObject, call: ImageGenerationCall): ImageResult {
  const items = Array.isArray(payload.data) ? payload.data : [];
  const images = items
    .map((item) => imageOf(item, payload.output_format))
    .filter((image): image is GeneratedImage => image !== undefined);
  if (images.length === 0) {
    throw new UpstreamError({
      kind: 'overload',
      retryable: true,
      httpStatus: 200,
      message: 'upstream answered without any image',
    });
  }
  const usage: Usage = { images: { count: images.length, ...compatImagePriceTier(call) } };
  const tokens = imageTokenUsageOf(payload.usage);
  if (tokens) usage.tokens = tokens;
  const metadata = metadataOf(payload);
  return { images, itemErrors: [], usage, ...(metadata && { metadata }), warnings: [] };
}
