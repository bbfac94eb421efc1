import type { ImageTier } from '@gateway/billing';
import { isJsonObject } from '@gateway/providers-core';
import type { JsonObject } from './json-value';

/**
 * What an image task's row keeps of its price (`tasks.price_snapshot`): the price it was admitted
 * at, so that its settlement captures the images it produced at that price even if the operator
 * changes prices meanwhile. Micros are decimal strings: JSON has no bigint.
 */
export interface ImageTaskPrice {
  tier: ImageTier;
  perCallMicros: bigint;
  perImageMicros: bigint;
}

const IMAGES_KIND = 'images';
const MICROS = /^\d{1,19}$/;

export function toImageTaskPriceSnapshot(price: ImageTaskPrice): JsonObject {
  const tier: JsonObject = {};
  if (price.tier.size !== undefined) tier.size = price.tier.size;
  if (price.tier.quality !== undefined) tier.quality = price.tier.quality;
  return {
    kind: IMAGES_KIND,
    tier,
    perCallMicros: price.perCallMicros.toString(),
    perImageMicros: price.perImageMicros.toString(),
  };
}

/** The image price of a snapshot; undefined for any other snapshot (a video task's, none at all). */
export function imageTaskPriceOf(snapshot: unknown): ImageTaskPrice | undefined {
  if (!isJsonObject(snapshot) || snapshot.kind !== IMAGES_KIND || !isJsonObject(snapshot.tier))
    return undefined;
  const { perCallMicros, perImageMicros } = snapshot;
  if (typeof perCallMicros !== 'string' || !MICROS.test(perCallMicros)) return undefined;
  if (typeof perImageMicros !== 'string' || !MICROS.test(perImageMicros)) return undefined;
  const { size, quality } = snapshot.tier;
  return {
    tier: {
      ...(typeof size === 'string' ? { size } : {}),
      ...(typeof quality === 'string' ? { quality } : {}),
    },
    perCallMicros: BigInt(perCallMicros),
    perImageMicros: BigInt(perImageMicros),
  };
}
