/**
 * What the families' official client routes (`/alpha/ent/v2/*`, `/gamma/v1/videos/*`) must know of
 * their provider: model names, endpoints, status words and the checks that need the family's numbers.
 * Kept with the provider and reached by the gateway through the registry, like the other rules here.
 */
export {
  ALPHA_IMAGE_MAX_BYTES,
  ALPHA_VIDEO_MODELS,
  alphaImageHeaderRefusal,
  planAlphaVideo,
  type ImageHeader,
} from '@gateway/providers-alpha';
export {
  GAMMA_OFFICIAL_ENDPOINTS,
  GAMMA_OFFICIAL_MODEL_NAMES,
  GAMMA_OFFICIAL_SUCCESS,
  gammaModelOfOfficialName,
  isGammaOfficialEndpoint,
  type GammaOfficialEndpoint,
  type GammaOfficialStatus,
} from '@gateway/providers-gamma';
