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

/**
 * What a video task's row keeps of its price: the resolution tier and prices it was admitted at, and
 * the seconds its hold covered. A completed task captures perCall + produced seconds x perSecond, the
 * held seconds when the upstream does not say how many it produced.
 */
export interface VideoTaskPrice {
  /** The per-second tier the task was priced at, lower case (`720p` …); null where the model has one price. */
  resolution: string | null;
  perCallMicros: bigint;
  perSecondMicros: bigint;
  /** The seconds the hold was computed for (VideoCall.seconds). */
  heldSeconds: number;
  /** Set where the wire bills tokens rather than seconds (theta 2.0); perSecondMicros is then 0. */
  tokens?: VideoTokenPrice;
}

/**
 * A video billed by the tokens its upstream reports: the token prices it was admitted at and the
 * output tokens its hold covered (the family's estimate). A completed task captures perCall + the
 * reported tokens at these prices, the held tokens when the upstream reports none.
 */
export interface VideoTokenPrice {
  inputPerMillionMicros: bigint;
  outputPerMillionMicros: bigint;
  heldTokens: number;
}

const IMAGES_KIND = 'images';
const VIDEO_KIND = 'video';
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

export function toVideoTaskPriceSnapshot(price: VideoTaskPrice): JsonObject {
  return {
    kind: VIDEO_KIND,
    resolution: price.resolution,
    perCallMicros: price.perCallMicros.toString(),
    perSecondMicros: price.perSecondMicros.toString(),
    heldSeconds: price.heldSeconds,
    ...(price.tokens
      ? {
          tokens: {
            inputPerMillionMicros: price.tokens.inputPerMillionMicros.toString(),
            outputPerMillionMicros: price.tokens.outputPerMillionMicros.toString(),
            heldTokens: price.tokens.heldTokens,
          },
        }
      : {}),
  };
}

/** The video price of a snapshot; undefined for any other snapshot (an image task's, none at all). */
export function videoTaskPriceOf(snapshot: unknown): VideoTaskPrice | undefined {
  if (!isJsonObject(snapshot) || snapshot.kind !== VIDEO_KIND) return undefined;
  const { resolution, perCallMicros, perSecondMicros, heldSeconds } = snapshot;
  if (typeof resolution !== 'string' && resolution !== null) return undefined;
  if (typeof perCallMicros !== 'string' || !MICROS.test(perCallMicros)) return undefined;
  if (typeof perSecondMicros !== 'string' || !MICROS.test(perSecondMicros)) return undefined;
  if (typeof heldSeconds !== 'number' || !Number.isFinite(heldSeconds) || heldSeconds < 0) return undefined;
  const price: VideoTaskPrice = {
    resolution,
    perCallMicros: BigInt(perCallMicros),
    perSecondMicros: BigInt(perSecondMicros),
    heldSeconds,
  };
  if (snapshot.tokens === undefined) return price;
  const tokens = videoTokenPriceOf(snapshot.tokens);
  return tokens ? { ...price, tokens } : undefined;
}

function videoTokenPriceOf(value: unknown): VideoTokenPrice | undefined {
  if (!isJsonObject(value)) return undefined;
  const { inputPerMillionMicros, outputPerMillionMicros, heldTokens } = value;
  if (typeof inputPerMillionMicros !== 'string' || !MICROS.test(inputPerMillionMicros)) return undefined;
  if (typeof outputPerMillionMicros !== 'string' || !MICROS.test(outputPerMillionMicros)) return undefined;
  if (typeof heldTokens !== 'number' || !Number.isSafeInteger(heldTokens) || heldTokens < 0) return undefined;
  return {
    inputPerMillionMicros: BigInt(inputPerMillionMicros),
    outputPerMillionMicros: BigInt(outputPerMillionMicros),
    heldTokens,
  };
}
