import type { ImagePlan, ImageRequest, ImageRules } from '@gateway/providers-core';
import { iotaLimitsOf, IOTA_MAX_IMAGES_PER_REQUEST } from './iota-image-models';
import { iotaSizeTier, resolveIotaSize } from './iota-image-size.util';

/** Client fields the iota wire has no counterpart for: dropped, with a warning. */
const FIELDS_WITHOUT_COUNTERPART = ['quality', 'style', 'background'] as const;

/**
 * The iota family's rules (upstreams.md §6.3, interface spec "Image generation request"): the size
 * (see resolveIotaSize), at most the model's references, `n` within what references leave of the 15
 * images one request may hold (n > 1 is the wire's group mode), no edits (the wire has none: a
 * reference image in a generation is how iota edits). Priced by the pixel size sent.
 */
export const iotaImageRules: ImageRules = {
  plan(request, operation): ImagePlan {
    const { model } = request;
    if (operation === 'edit') {
      return {
        ok: false,
        param: 'model',
        message: `${model} has no image edits; send the images to change in image to /v1/images/generations`,
      };
    }
    const limits = iotaLimitsOf(model);
    // A model without limits of its own still shares the 15 images of a request with one output.
    const maxReferences = limits?.maxReferences ?? IOTA_MAX_IMAGES_PER_REQUEST - 1;
    if (request.images.length > maxReferences) {
      return {
        ok: false,
        param: 'image',
        message: `image takes at most ${maxReferences} reference images for ${model}`,
      };
    }
    const maxImages = IOTA_MAX_IMAGES_PER_REQUEST - request.images.length;
    const n = request.n === undefined || request.n === 0 ? 1 : request.n;
    if (!Number.isInteger(n) || n < 1 || n > maxImages) {
      return { ok: false, param: 'n', message: nRefusal(model, maxImages, request.images.length) };
    }
    const size = resolveIotaSize(request, limits);
    if (!size.ok) return size;
    return {
      ok: true,
      call: {
        prompt: request.prompt,
        n,
        size: size.size,
        ...(request.watermark === undefined ? {} : { watermark: request.watermark }),
        responseFormat: request.responseFormat,
        images: request.images,
      },
      priceTier: { size: iotaSizeTier(size.size) },
      warnings: [...size.warnings, ...ignoredFieldWarnings(request)],
    };
  },
};

function nRefusal(model: string, maxImages: number, references: number): string {
  const shared =
    references > 0
      ? ` with ${references} reference images (references and images together at most ${IOTA_MAX_IMAGES_PER_REQUEST})`
      : '';
  return `n must be an integer from 1 to ${maxImages} for ${model}${shared}`;
}

function ignoredFieldWarnings(request: ImageRequest): string[] {
  return FIELDS_WITHOUT_COUNTERPART.filter((field) => request[field] !== undefined).map(
    (field) => `${field} was ignored: ${request.model} has no such option`,
  );
}
