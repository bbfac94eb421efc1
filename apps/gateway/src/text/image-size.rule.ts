import { GatewayError } from '../errors/gateway-error';

/** Size tiers the gateway sends per image model: `1K`/`2K` for the pro model, `1K` for the others. */
const IMAGE_SIZE_TIERS: Record<string, readonly string[]> = {
  'kappa-3-pro-image-preview': ['1K', '2K'],
  'kappa-2.5-flash-image-preview': ['1K'],
  'kappa-3.1-flash-image-preview': ['1K'],
};

/**
 * The pro image model refuses tiers beyond `2K` with a 400 naming the field; the flash image models
 * fall back to `1K` whatever was asked, so the request is rewritten (and no longer forwarded verbatim).
 */
export function applyImageSizeRule(
  model: string,
  request: Record<string, unknown>,
): { request: Record<string, unknown>; changed: boolean } {
  const tiers = IMAGE_SIZE_TIERS[model];
  const generationConfig = request['generationConfig'] as Record<string, unknown> | undefined;
  const imageConfig = generationConfig?.['imageConfig'] as Record<string, unknown> | undefined;
  const imageSize = imageConfig?.['imageSize'];
  if (
    !tiers ||
    !generationConfig ||
    !imageConfig ||
    imageSize === undefined ||
    tiers.includes(String(imageSize))
  ) {
    return { request, changed: false };
  }
  if (tiers.length > 1) {
    throw GatewayError.invalidRequest(
      `generationConfig.imageConfig.imageSize must be one of ${tiers.join(', ')} for ${model}.`,
      'generationConfig.imageConfig.imageSize',
    );
  }
  return {
    request: {
      ...request,
      generationConfig: { ...generationConfig, imageConfig: { ...imageConfig, imageSize: tiers[0] } },
    },
    changed: true,
  };
}
