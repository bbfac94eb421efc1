import { isJsonObject } from '@gateway/providers-core';
import { kappaImageSizeTiersOf } from './kappa-image-models';

const IMAGE_SIZE_PARAM = 'generationConfig.imageConfig.imageSize';

/** The native request, rewritten when a tier fell back; or the refusal, a 400 naming the field. */
export type KappaImageSizeRuleResult =
  | { ok: true; request: Record<string, unknown>; changed: boolean }
  | { ok: false; param: string; message: string };

/**
 * The size-tier rule of the kappa image models on the native generation route, applied at admission
 * to a validated camelCase request: the pro model refuses tiers beyond `2K`; the flash models fall
 * back to `1K` whatever was asked, so the request is rewritten (and no longer forwarded verbatim).
 * Other models and requests without an image size pass unchanged.
 */
export function applyKappaImageSizeRule(
  model: string,
  request: Record<string, unknown>,
): KappaImageSizeRuleResult {
  const tiers = kappaImageSizeTiersOf(model);
  const generationConfig = request.generationConfig;
  const imageConfig = isJsonObject(generationConfig) ? generationConfig.imageConfig : undefined;
  if (!tiers || !isJsonObject(generationConfig) || !isJsonObject(imageConfig)) {
    return { ok: true, request, changed: false };
  }
  const imageSize = imageConfig.imageSize;
  if (imageSize === undefined || tiers.includes(String(imageSize)))
    return { ok: true, request, changed: false };
  if (tiers.length > 1) {
    return {
      ok: false,
      param: IMAGE_SIZE_PARAM,
      message: `${IMAGE_SIZE_PARAM} must be one of ${tiers.join(', ')} for ${model}.`,
    };
  }
  return {
    ok: true,
    request: {
      ...request,
      generationConfig: { ...generationConfig, imageConfig: { ...imageConfig, imageSize: tiers[0] } },
    },
    changed: true,
  };
}
