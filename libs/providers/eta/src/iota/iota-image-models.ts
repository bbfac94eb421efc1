import type { Pixels } from '@gateway/providers-core';

/** What one iota model accepts (upstreams.md §6.3; the 5.0 values are the project's convention ‡). */
export interface IotaModelLimits {
  /** Reference images per request. */
  maxReferences: number;
  /** Smallest area in pixels; the largest is IOTA_MAX_AREA for every model. */
  minArea: number;
  /** Size keywords the model takes. */
  sizeKeywords: readonly string[];
}

const LATER_MODEL_LIMITS: IotaModelLimits = {
  maxReferences: 14,
  minArea: 3_686_400,
  sizeKeywords: ['2K', '4K'],
};

/** Keyed by the public model name (the interface spec's), which is also the upstream id. */
export const IOTA_MODEL_LIMITS: Readonly<Record<string, IotaModelLimits>> = {
  'eta-iota-4-0-250828': { maxReferences: 10, minArea: 921_600, sizeKeywords: ['1K', '2K', '4K'] },
  'eta-iota-4-5-251128': LATER_MODEL_LIMITS,
  'eta-iota-5-0-260128': LATER_MODEL_LIMITS,
};

export const IOTA_MAX_AREA = 16_777_216;
/** Sides may differ by this factor at most: 1:16 … 16:1. */
export const IOTA_MAX_ASPECT = 16;
/** References and generated images of one request together (`max_images` is 1 … 15). */
export const IOTA_MAX_IMAGES_PER_REQUEST = 15;
/** What the wire generates when `size` is absent; the gateway sends it explicitly, so the tier is known. */
export const IOTA_DEFAULT_SIZE: Pixels = { width: 2048, height: 2048 };

/**
 * A size keyword stands for a square of that many pixels a side. The gateway sends the square, not
 * the keyword, because the price tier is the pixel size sent, which a keyword leaves to the upstream.
 */
export const IOTA_KEYWORD_SIDES: Readonly<Record<string, number>> = { '1K': 1024, '2K': 2048, '4K': 4096 };

export function iotaLimitsOf(model: string): IotaModelLimits | undefined {
  return Object.hasOwn(IOTA_MODEL_LIMITS, model) ? IOTA_MODEL_LIMITS[model] : undefined;
}

/** Pixels as the iota wire writes them in `size` (`2560x1440`). */
export function formatIotaPixels({ width, height }: Pixels): string {
  return `${width}x${height}`;
}
