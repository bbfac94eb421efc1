/**
 * Size tiers the gateway sends per kappa image model (interface spec, Limits): `1K` and `2K` for the
 * pro model; the flash models fall back to `1K` whatever was asked. Keyed by the public model name.
 */
export const KAPPA_IMAGE_SIZE_TIERS: Readonly<Record<string, readonly string[]>> = {
  'kappa-3-pro-image-preview': ['1K', '2K'],
  'kappa-2.5-flash-image-preview': ['1K'],
  'kappa-3.1-flash-image-preview': ['1K'],
};

/** Every tier the wire knows (upstreams.md §1.3), for models without rules of their own. */
export const KAPPA_WIRE_IMAGE_SIZES: readonly string[] = ['1K', '2K', '4K'];

/** What the wire generates when `imageSize` is absent; the gateway always sends the tier it priced. */
export const KAPPA_DEFAULT_IMAGE_SIZE = '1K';

/**
 * Aspect ratios offered for the kappa family (interface spec: 4:3, 3:4, 3:2, 2:3 and 21:9 are offered
 * for every family but this one, although the wire itself would take them).
 */
export const KAPPA_IMAGE_RATIOS: readonly string[] = ['1:1', '16:9', '9:16'];

/**
 * Images per request. The wire answers one image per call (image models take no `candidateCount`),
 * so `n` images are `n` concurrent calls on one channel; the bound keeps one request from spending
 * a channel's per-minute quota on its own.
 */
export const KAPPA_MAX_IMAGES_PER_REQUEST = 4;

export function kappaImageSizeTiersOf(model: string): readonly string[] | undefined {
  return Object.hasOwn(KAPPA_IMAGE_SIZE_TIERS, model) ? KAPPA_IMAGE_SIZE_TIERS[model] : undefined;
}
