import type { ImagePlan, ImageRequest, ImageRules } from '@gateway/providers-core';
import {
  KAPPA_DEFAULT_IMAGE_SIZE,
  KAPPA_IMAGE_RATIOS,
  KAPPA_MAX_IMAGES_PER_REQUEST,
  KAPPA_WIRE_IMAGE_SIZES,
  kappaImageSizeTiersOf,
} from './kappa-image-models';

/** Client fields generateContent has no counterpart for: dropped, with a warning. */
const FIELDS_WITHOUT_COUNTERPART = ['quality', 'style', 'background', 'watermark'] as const;

const RATIO = /^\d{1,2}:\d{1,2}$/;
const WIDTH_BY_HEIGHT = /^(\d{1,5})[xX](\d{1,5})$/;

/** What the client's `size` says on this wire: a tier keyword, an aspect ratio, or nothing usable. */
type SizeMeaning = { tier: string } | { ratio: string } | undefined;

type Refusal = Extract<ImagePlan, { ok: false }>;

/**
 * The kappa image family's rules (interface spec: "Image generation request", Limits; upstreams.md
 * §1.3). generateContent takes an aspect ratio and a size tier, not pixels, so:
 * - the ratio comes from `size` (`16:9`, or `WxH` reduced to its ratio) or `ratio`; only 1:1, 16:9 and
 *   9:16 are offered; absent, none is sent (the upstream's default is square);
 * - the tier comes from `resolution` or a `size` keyword (`1K`, `2K`, any case), `1K` when absent: the
 *   pro model takes `1K` and `2K` and refuses more; the flash models fall back to `1K`;
 * - reference images must be bytes (they travel as inlineData parts), `n` is 1 to 4 (one call each);
 * - kappa images have no edits route (upstreams.md §11: generations only), so `edit` is refused.
 * A model without rules takes any ratio and any tier of the wire. Priced by the tier sent.
 */
export const kappaImageRules: ImageRules = {
  plan(request, operation): ImagePlan {
    const { model } = request;
    if (operation === 'edit') {
      return {
        ok: false,
        param: 'model',
        message: `${model} has no image edits; send the images to change in image to /v1/images/generations`,
      };
    }
    if (request.images.some((image) => image.kind === 'url')) {
      return { ok: false, param: 'image', message: `image must be Base64 image data for ${model}` };
    }
    const n = request.n === undefined || request.n === 0 ? 1 : request.n;
    if (!Number.isInteger(n) || n < 1 || n > KAPPA_MAX_IMAGES_PER_REQUEST) {
      return {
        ok: false,
        param: 'n',
        message: `n must be an integer from 1 to ${KAPPA_MAX_IMAGES_PER_REQUEST} for ${model}`,
      };
    }
    const sizeMeaning = request.size === undefined ? undefined : meaningOfSize(request.size);
    if (request.size !== undefined && !sizeMeaning) {
      return { ok: false, param: 'size', message: sizeRefusal(model) };
    }
    const warnings: string[] = [];
    const ratio = chooseRatio(request, sizeMeaning, warnings);
    if (typeof ratio === 'object') return ratio;
    const tier = chooseTier(request, sizeMeaning, warnings);
    if (typeof tier === 'object') return tier;
    for (const field of FIELDS_WITHOUT_COUNTERPART) {
      if (request[field] !== undefined) warnings.push(`${field} was ignored: ${model} has no such option`);
    }
    return {
      ok: true,
      call: {
        prompt: request.prompt,
        n,
        size: { kind: 'tier', tier },
        ...(ratio === undefined ? {} : { aspectRatio: ratio }),
        responseFormat: request.responseFormat,
        images: request.images,
      },
      priceTier: { size: tier },
      warnings,
    };
  },
};

function meaningOfSize(size: string): SizeMeaning {
  const keyword = size.toUpperCase();
  if (KAPPA_WIRE_IMAGE_SIZES.includes(keyword)) return { tier: keyword };
  if (RATIO.test(size)) return { ratio: size };
  const match = WIDTH_BY_HEIGHT.exec(size);
  if (!match) return undefined;
  const [width, height] = [Number(match[1]), Number(match[2])];
  if (width === 0 || height === 0) return undefined;
  const divisor = greatestCommonDivisor(width, height);
  return { ratio: `${width / divisor}:${height / divisor}` };
}

/** The ratio to send (undefined: none), or the refusal; `size` wins over `ratio` when both say one. */
function chooseRatio(
  request: ImageRequest,
  sizeMeaning: SizeMeaning,
  warnings: string[],
): string | undefined | Refusal {
  const fromSize = sizeMeaning && 'ratio' in sizeMeaning ? sizeMeaning.ratio : undefined;
  if (fromSize !== undefined && request.ratio !== undefined) {
    warnings.push(`ratio ${request.ratio} was ignored because size was given`);
  }
  const ratio = fromSize ?? request.ratio;
  if (ratio === undefined || !kappaImageSizeTiersOf(request.model) || KAPPA_IMAGE_RATIOS.includes(ratio)) {
    if (fromSize !== undefined && fromSize !== request.size) {
      warnings.push(
        `size ${request.size} was sent as aspect ratio ${fromSize}: ${request.model} takes a ratio and a size tier`,
      );
    }
    return ratio;
  }
  return fromSize === undefined
    ? {
        ok: false,
        param: 'ratio',
        message: `ratio must be one of ${KAPPA_IMAGE_RATIOS.join(', ')} for ${request.model}`,
      }
    : { ok: false, param: 'size', message: sizeRefusal(request.model) };
}

/** The tier to send, or the refusal; `resolution` wins over a `size` keyword when both say one. */
function chooseTier(request: ImageRequest, sizeMeaning: SizeMeaning, warnings: string[]): string | Refusal {
  const fromSize = sizeMeaning && 'tier' in sizeMeaning ? sizeMeaning.tier : undefined;
  if (fromSize !== undefined && request.resolution !== undefined) {
    warnings.push(`size ${request.size} was ignored because resolution was given`);
  }
  const asked = request.resolution?.toUpperCase() ?? fromSize ?? KAPPA_DEFAULT_IMAGE_SIZE;
  const tiers = kappaImageSizeTiersOf(request.model) ?? KAPPA_WIRE_IMAGE_SIZES;
  if (tiers.includes(asked)) return asked;
  if (tiers.length > 1) {
    const param = request.resolution === undefined ? 'size' : 'resolution';
    return { ok: false, param, message: `${param} must be one of ${tiers.join(', ')} for ${request.model}` };
  }
  warnings.push(`${request.model} generates ${tiers[0]} images only; ${asked} fell back to ${tiers[0]}`);
  return tiers[0];
}

function sizeRefusal(model: string): string {
  const tiers = kappaImageSizeTiersOf(model) ?? KAPPA_WIRE_IMAGE_SIZES;
  return `size must be one of ${[...KAPPA_IMAGE_RATIOS, ...tiers].join(', ')}, or WIDTHxHEIGHT of one of those ratios, for ${model}`;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
