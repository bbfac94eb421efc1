import type { SerialisableObject } from '@gateway/providers-core';

/**
 * The beta Action API (upstreams.md §4) as both of its sides speak it: the gateway's client-facing
 * `/bt` routes and the `beta` channel type. Both read the actions, the model ↔ `req_key` table and
 * the size tiers from here, so the two sides cannot drift apart.
 */
export const BETA_API_VERSION = '2022-08-31';
export const BETA_SUBMIT_ACTION = 'CVSync2AsyncSubmitTask';
export const BETA_GET_RESULT_ACTION = 'CVSync2AsyncGetResult';

/** `code` (and `status`) of every successful answer; anything else is a business error (§4.6). */
export const BETA_SUCCESS_CODE = 10000;

/** The image models and the `req_key` that selects each (§4.3). */
const IMAGE_REQ_KEY_BY_MODEL: Readonly<Record<string, string>> = {
  'beta-4.0': 'beta_t2i_v40',
  'beta-4.5': 'beta_t2i_v45',
};

export const BETA_IMAGE_MODELS: readonly string[] = Object.keys(IMAGE_REQ_KEY_BY_MODEL);

/** The `req_key` of an image model; undefined for a name the table does not know. */
export function betaImageReqKeyOf(model: string): string | undefined {
  return Object.hasOwn(IMAGE_REQ_KEY_BY_MODEL, model) ? IMAGE_REQ_KEY_BY_MODEL[model] : undefined;
}

/** The gateway model an image `req_key` selects; undefined for a key the table does not know. */
export function betaImageModelOf(reqKey: string): string | undefined {
  return BETA_IMAGE_MODELS.find((model) => IMAGE_REQ_KEY_BY_MODEL[model] === reqKey);
}

/** Output pixel areas the image wire accepts, and the one it uses when the request names none (§4.3). */
export const BETA_IMAGE_AREA = {
  min: 1024 * 1024,
  default: 2048 * 2048,
  max: 4096 * 4096,
} as const;

/** The resolution tiers the interface spec offers; images are priced by them. */
export const BETA_RESOLUTION_TIERS = ['1k', '2k', '4k'] as const;
export type BetaResolutionTier = (typeof BETA_RESOLUTION_TIERS)[number];

/** `1k`/`2k`/`4k` correspond to 1024², 2048² and 4096² pixels (§4.3). */
export const BETA_TIER_AREA: Readonly<Record<BetaResolutionTier, number>> = {
  '1k': 1024 * 1024,
  '2k': 2048 * 2048,
  '4k': 4096 * 4096,
};

export function isBetaResolutionTier(value: string): value is BetaResolutionTier {
  return (BETA_RESOLUTION_TIERS as readonly string[]).includes(value);
}

/**
 * The tier nearest an output area, on a logarithmic scale (1k up to 1448², 2k up to 2896², 4k above):
 * an image is priced at it. Nearest rather than "at least": a 1k image at a ratio rounds its sides to
 * multiples of 8 and may land a little above 1024² pixels.
 */
export function betaTierOfArea(area: number): BetaResolutionTier {
  return (
    BETA_RESOLUTION_TIERS.find((tier, index) => {
      const next = BETA_RESOLUTION_TIERS[index + 1];
      return next === undefined || area <= Math.sqrt(BETA_TIER_AREA[tier] * BETA_TIER_AREA[next]);
    }) ?? '4k'
  );
}

/**
 * The output area a submission body asks for: `width` × `height` when both are numbers, else the
 * `size` area, else the wire's default. Read tolerantly: the upstream refuses what is invalid.
 */
export function betaSubmissionArea(submission: Readonly<Record<string, unknown>>): number {
  const { width, height, size } = submission;
  if (typeof width === 'number' && typeof height === 'number') return width * height;
  return typeof size === 'number' ? size : BETA_IMAGE_AREA.default;
}

/**
 * A beta task as its row stores it and the beta task adapter submits it: the §4.3 submission body
 * without `req_key` (the channel's upstream model decides it), and the §4.4 `req_json` options its
 * result is fetched with (`logo_info`, `aigc_meta`; the adapter adds `return_url` itself).
 */
export type BetaTaskRequest = {
  submission: SerialisableObject;
  resultOptions: SerialisableObject;
};
