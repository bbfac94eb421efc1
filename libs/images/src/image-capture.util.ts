import { costMicros, estimateImageHoldMicros, imageTierPrice, type ModelPrice } from '@gateway/billing';
import type { ImagePriceTier, Usage } from '@gateway/providers-core';

/**
 * What a delivered image answer costs: `delivered` images (never more than the `n` planned) at the
 * tier the upstream reports it made them at, the parts it leaves out taken from the plan; a reported
 * tier the price does not name falls back to the planned tier, which admission checked is priced.
 * Tokens the upstream reports are priced too, as the model's price says. Images the client did not
 * get (item errors, failed downloads) are not charged.
 */
export function imageCaptureMicros(
  usage: Usage,
  delivered: number,
  planned: { n: number; priceTier: ImagePriceTier },
  price: ModelPrice,
): bigint {
  const reported = { ...planned.priceTier, ...definedTierOf(usage) };
  const tier = imageTierPrice(price, reported).ok ? reported : planned.priceTier;
  const count = Math.min(delivered, planned.n);
  try {
    return costMicros({ ...usage, images: { count, ...tier } }, price);
  } catch (error) {
    // Token counts an adapter reported wrongly must not lose the images' price.
    if (!(error instanceof RangeError)) throw error;
    return estimateImageHoldMicros(count, tier, price);
  }
}

function definedTierOf(usage: Usage): ImagePriceTier {
  const tier: ImagePriceTier = {};
  if (usage.images?.size) tier.size = usage.images.size;
  if (usage.images?.quality) tier.quality = usage.images.quality;
  return tier;
}
