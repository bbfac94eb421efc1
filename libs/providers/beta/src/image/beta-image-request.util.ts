import type { ImageGenerationCall, SerialisableObject } from '@gateway/providers-core';
import { BETA_TIER_AREA, isBetaResolutionTier, type BetaTaskRequest } from '@gateway/dialects';

/**
 * The beta task of a planned image call (upstreams.md §4.3–§4.4): the prompt, the reference URLs as
 * `image_urls`, the output as `width`/`height` (pixels) or `size` (a tier's area), `force_single` for
 * one image, and `watermark` as `logo_info.add_logo` of the result query, only when the client set it.
 */
export function toBetaTaskRequest(call: ImageGenerationCall): BetaTaskRequest {
  const submission: SerialisableObject = { prompt: call.prompt };
  const urls = call.images.map((image) => {
    // planBetaImage refuses anything but URLs; bytes reaching here are a caller's bug.
    if (image.kind !== 'url') throw new TypeError('beta reference images must be URLs');
    return image.url;
  });
  if (urls.length > 0) submission.image_urls = urls;
  if (call.size?.kind === 'pixels') {
    submission.width = call.size.width;
    submission.height = call.size.height;
  } else if (call.size?.kind === 'tier' && isBetaResolutionTier(call.size.tier)) {
    submission.size = BETA_TIER_AREA[call.size.tier];
  }
  if (call.n === 1) submission.force_single = true;
  const resultOptions: SerialisableObject =
    call.watermark === undefined ? {} : { logo_info: { add_logo: call.watermark } };
  return { submission, resultOptions };
}
