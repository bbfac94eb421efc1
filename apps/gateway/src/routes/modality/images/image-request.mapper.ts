import {
  describeProblems,
  IMAGE_REQUEST_LIMITS,
  ImageGenerationRequestDto,
  validateBody,
  type ImageRequestFieldsDto,
} from '@gateway/contracts';
import { decodeBase64, inspectImage, UPLOAD_CONTENT_TYPES } from '@gateway/images';
import type { ImageInput, ImageRequest } from '@gateway/providers-core';
import type { ClassConstructor } from 'class-transformer';
import { GatewayError } from '@gateway/errors';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';

const HTTP_URL = /^https?:\/\//i;

/** Validates a body against its DTO; the client's 400 names every field at fault. */
export function validImageBody<T extends ImageRequestFieldsDto>(
  dtoClass: ClassConstructor<T>,
  body: unknown,
): T {
  const result = validateBody(dtoClass, body);
  if (!result.ok)
    throw GatewayError.invalidRequest(describeProblems(result.problems), result.problems[0]?.field);
  return result.value;
}

/** The dialect-neutral request the family rules read, from a validated body and its images. */
export function toImageRequest(
  fields: ImageRequestFieldsDto & { ratio?: string | null; resolution?: string | null },
  images: ImageInput[],
  mask?: ImageInput,
): ImageRequest {
  return {
    model: fields.model,
    prompt: fields.prompt,
    n: fields.n ?? undefined,
    size: fields.size ?? undefined,
    quality: fields.quality ?? undefined,
    style: fields.style ?? undefined,
    background: fields.background ?? undefined,
    watermark: fields.watermark ?? undefined,
    responseFormat: (fields.response_format ?? 'url') === 'url' ? 'url' : 'b64',
    images,
    mask,
    ratio: fields.ratio ?? undefined,
    resolution: fields.resolution ?? undefined,
  };
}

/**
 * The `image` field of a generation: each entry an http(s) URL (passed on as it is: the gateway does
 * not fetch it) or Base64 image data, checked to be a PNG, JPEG or WebP by its bytes.
 */
export function referenceImagesOf(value: string | string[] | null | undefined): ImageInput[] {
  if (value === undefined || value === null) return [];
  const entries = typeof value === 'string' ? [value] : value;
  return entries.map((entry, index) => {
    const param = typeof value === 'string' ? 'image' : `image[${index}]`;
    if (HTTP_URL.test(entry)) {
      if (entry.length > IMAGE_REQUEST_LIMITS.urlLength) {
        throw GatewayError.invalidRequest(
          `${param} is longer than ${IMAGE_REQUEST_LIMITS.urlLength} characters.`,
          param,
        );
      }
      return { kind: 'url', url: entry };
    }
    const bytes = decodeBase64(entry);
    if (!bytes) {
      throw GatewayError.invalidRequest(`${param} must be Base64 image data or an http(s) URL.`, param);
    }
    return uploadedImage(bytes, param);
  });
}

/** Bytes a client sent as an image, refused unless they are a PNG, JPEG or WebP. */
export function uploadedImage(bytes: Buffer, param: string): ImageInput {
  const image = inspectImage(bytes);
  if (!image || !UPLOAD_CONTENT_TYPES.has(image.contentType)) {
    throw GatewayError.invalidRequest(`${param} is not a PNG, JPEG or WebP image.`, param);
  }
  return { kind: 'bytes', bytes, contentType: image.contentType };
}

/** The request of a generation body (`POST /v1/images/generations`). */
/** The generation route's body, declared on the route: the DTO, each field at fault named. */
export const IMAGE_GENERATION_BODY: BodyDeclaration<ImageGenerationRequestDto> = {
  dto: ImageGenerationRequestDto,
  validate: validImageBody,
};

/** `body` as the route declared it, or as sent (then validated by the same declaration). */
export function toGenerationRequest(body: DeclaredBody<ImageGenerationRequestDto> | unknown): ImageRequest {
  const fields = declaredBodyOf(body, IMAGE_GENERATION_BODY).fields();
  return toImageRequest(fields, referenceImagesOf(fields.image));
}
