import type { ImageGenerationCall, ImagePriceTier } from '@gateway/providers-core';

/**
 * The tier a compat image is priced by: the size as the pixels sent (`1024x1024`) and the quality as
 * sent or the family's default (`standard`, `hd`, `auto`, `low` …). A size the upstream chooses
 * (`auto`, or none sent) has no size tier; billing then falls back to the quality, then `default`.
 * The plan's hold and the adapter's usage use this one function, so the two always agree.
 */
export function compatImagePriceTier({
  size,
  quality,
}: Pick<ImageGenerationCall, 'size' | 'quality'>): ImagePriceTier {
  const tier: ImagePriceTier = {};
  if (size?.kind === 'pixels') tier.size = `${size.width}x${size.height}`;
  if (quality !== undefined) tier.quality = quality;
  return tier;
}
