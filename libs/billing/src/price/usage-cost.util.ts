import type { ImageUsage, Usage, VideoUsage } from '@gateway/providers-core';
import { textCostMicros } from './cost.util';
import type { ModelPrice } from './price.types';
import { imageTierPrice, videoSecondPrice, type ImageTier, type TierPrice } from './tier-price.util';

/** Usage in a tier its price table does not name: a caller checks tiers before it holds (see imageTierPrice). */
export class UnpricedTierError extends Error {
  constructor(
    readonly dimension: 'image' | 'video',
    readonly asked: string,
    readonly offered: readonly string[],
  ) {
    super(`no ${dimension} price for tier ${asked} (priced: ${offered.join(', ') || 'none'})`);
    this.name = 'UnpricedTierError';
  }
}

/**
 * The cost of one call from every dimension its usage reports: the per-call price once, tokens (as
 * textCostMicros prices them), images by tier and seconds of video by resolution, exactly in bigint.
 * Audio has no price dimension yet. Text requests keep calling textCostMicros directly: this adds
 * nothing they need. Throws UnpricedTierError for a tier the price does not name.
 */
export function costMicros(usage: Usage, price: ModelPrice): bigint {
  let micros = usage.tokens ? textCostMicros(usage.tokens, price) : price.perCall;
  if (usage.images && usage.images.count > 0) micros += imagesCostMicros(usage.images, price);
  if (usage.video && usage.video.seconds > 0) micros += videoCostMicros(usage.video, price);
  return micros;
}

/**
 * The hold of an image request: the per-call price and `count` images at the tier asked for, which
 * the caller has checked is priced (an unpriced tier throws UnpricedTierError).
 */
export function estimateImageHoldMicros(count: number, tier: ImageTier, price: ModelPrice): bigint {
  const each = pricedOrThrow('image', imageTierPrice(price, tier));
  return price.perCall + toWholeCount(count, 'image count') * each;
}

function imagesCostMicros(images: ImageUsage, price: ModelPrice): bigint {
  const each = pricedOrThrow('image', imageTierPrice(price, images));
  return toWholeCount(images.count, 'image count') * each;
}

/** Seconds are billed whole, rounded up, as request_logs.media_seconds records them. */
function videoCostMicros(video: VideoUsage, price: ModelPrice): bigint {
  const each = pricedOrThrow('video', videoSecondPrice(price, video.resolution));
  return toWholeCount(Math.ceil(video.seconds), 'video seconds') * each;
}

function pricedOrThrow(dimension: 'image' | 'video', price: TierPrice): bigint {
  if (price.ok) return price.micros;
  throw new UnpricedTierError(dimension, price.asked, price.offered);
}

function toWholeCount(value: number, name: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole, non-negative number, got ${value}`);
  }
  return BigInt(value);
}
