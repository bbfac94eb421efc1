import {
  aspectRatioSizeOf,
  ASPECT_RATIOS,
  type ImageRequest,
  type ImageSize,
  type Pixels,
} from '@gateway/providers-core';
import {
  formatIotaPixels,
  IOTA_DEFAULT_SIZE,
  IOTA_KEYWORD_SIDES,
  IOTA_MAX_AREA,
  IOTA_MAX_ASPECT,
  type IotaModelLimits,
} from './iota-image-models';

/** The size to send, or why the request's `size` or `ratio` cannot be sent. */
export type IotaSizeResolution =
  { ok: true; size: ImageSize; warnings: string[] } | { ok: false; param: 'size' | 'ratio'; message: string };

const WIDTH_BY_HEIGHT = /^(\d{1,5})[xX](\d{1,5})$/;

const pixels = ({ width, height }: Pixels): ImageSize => ({ kind: 'pixels', width, height });

/**
 * The request's size for the iota wire, which takes only `size`: an offered aspect ratio (in `size`
 * or, as for other families, in `ratio`) becomes its size of ASPECT_RATIO_SIZES (each within the area
 * every iota model accepts), a keyword its square, `WxH` stays as written; nothing means the wire's
 * default, sent explicitly. A known model's limits are checked here so that a size the upstream would
 * refuse is the client's 400 before any hold; an unknown model's size passes as sent.
 */
export function resolveIotaSize(
  request: ImageRequest,
  limits: IotaModelLimits | undefined,
): IotaSizeResolution {
  const { size, ratio, model } = request;
  if (size === undefined) {
    if (ratio === undefined) return { ok: true, size: pixels(IOTA_DEFAULT_SIZE), warnings: [] };
    const ratioSize = aspectRatioSizeOf(ratio);
    if (!ratioSize) {
      return {
        ok: false,
        param: 'ratio',
        message: `ratio must be one of ${ASPECT_RATIOS.join(', ')} for ${model}`,
      };
    }
    return { ok: true, size: pixels(ratioSize), warnings: [] };
  }
  const warnings = ratio === undefined ? [] : [`ratio ${ratio} was ignored because size was given`];
  const asked = pixelsOf(size);
  if (!asked) {
    return limits
      ? { ok: false, param: 'size', message: sizeRefusal(model, limits) }
      : { ok: true, size: { kind: 'tier', tier: size }, warnings };
  }
  if (limits && !fitsLimits(size, asked, limits)) {
    return { ok: false, param: 'size', message: sizeRefusal(model, limits) };
  }
  return { ok: true, size: pixels(asked), warnings };
}

/** The pixels a ratio, a keyword (any case) or `WxH` stands for; undefined for anything else. */
function pixelsOf(size: string): Pixels | undefined {
  const ratioSize = aspectRatioSizeOf(size);
  if (ratioSize) return ratioSize;
  const keyword = size.toUpperCase();
  if (Object.hasOwn(IOTA_KEYWORD_SIDES, keyword)) {
    return { width: IOTA_KEYWORD_SIDES[keyword], height: IOTA_KEYWORD_SIDES[keyword] };
  }
  const match = WIDTH_BY_HEIGHT.exec(size);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : undefined;
}

/** The wire's rules (§6.3): the model's keywords; `WxH` within its area range and 1:16 … 16:1. */
function fitsLimits(size: string, { width, height }: Pixels, limits: IotaModelLimits): boolean {
  const keyword = size.toUpperCase();
  if (Object.hasOwn(IOTA_KEYWORD_SIDES, keyword)) return limits.sizeKeywords.includes(keyword);
  const area = width * height;
  return (
    area >= limits.minArea &&
    area <= IOTA_MAX_AREA &&
    width <= height * IOTA_MAX_ASPECT &&
    height <= width * IOTA_MAX_ASPECT
  );
}

function sizeRefusal(model: string, limits: IotaModelLimits): string {
  return (
    `size must be one of ${[...ASPECT_RATIOS, ...limits.sizeKeywords].join(', ')}, or WIDTHxHEIGHT of ` +
    `${limits.minArea} to ${IOTA_MAX_AREA} pixels with an aspect ratio from 1:${IOTA_MAX_ASPECT} to ` +
    `${IOTA_MAX_ASPECT}:1, for ${model}`
  );
}

/** The price tier of a size: the pixels sent (`2560x1440`), or the string sent for an unknown model. */
export function iotaSizeTier(size: ImageSize): string {
  return size.kind === 'pixels' ? formatIotaPixels(size) : size.tier;
}
