import type { VideoSubmissionStyle } from '@gateway/providers-core';

/**
 * The beta video value sets by submission style (interface spec, "Video parameter constraints by
 * style"). The family's official route (`/bt`) takes the wire's own set, which is the unified one.
 */
export interface BetaVideoStyleConstraints {
  /** Where the style writes each value, for refusals. */
  fields: { seconds: string; size: string; aspectRatio: string };
  aspectRatios: readonly string[];
  /** Each accepted `size` (upper-cased) and what it gives: a ratio (OpenAI) or a resolution (unified). */
  sizes: Readonly<Record<string, { ratio?: string; resolution?: string }>>;
}

const OPENAI_RATIOS = ['16:9', '9:16', '1:1'];

const OPENAI: BetaVideoStyleConstraints = {
  fields: { seconds: 'seconds', size: 'size', aspectRatio: 'aspect_ratio' },
  aspectRatios: OPENAI_RATIOS,
  // Both sizes are 720p; the size says the orientation.
  sizes: { '720X1280': { ratio: '9:16' }, '1280X720': { ratio: '16:9' } },
};

const UNIFIED: BetaVideoStyleConstraints = {
  fields: { seconds: 'duration', size: 'size', aspectRatio: 'aspect_ratio' },
  aspectRatios: [...OPENAI_RATIOS, '4:3', '3:4', '21:9'],
  sizes: { '720P': { resolution: '720p' }, '1080P': { resolution: '1080p' } },
};

export function betaVideoConstraintsOf(style: VideoSubmissionStyle): BetaVideoStyleConstraints {
  return style === 'openai' ? OPENAI : UNIFIED;
}

/** Seconds in every style; 5 when the request gives none (interface spec, default duration). */
export const BETA_VIDEO_SECONDS: readonly number[] = [5, 10, 15];
export const BETA_VIDEO_DEFAULT_SECONDS = 5;
/** The text modes' ratio when none is asked (§4.3). */
export const BETA_VIDEO_DEFAULT_RATIO = '16:9';
export const BETA_VIDEO_DEFAULT_RESOLUTION = '720p';
/** `metadata.output_config.resolution`, in every style. */
export const BETA_VIDEO_RESOLUTIONS: Readonly<Record<string, string>> = { '720P': '720p', '1080P': '1080p' };
export const BETA_VIDEO_MAX_PROMPT_CHARACTERS = 800;

/** §4.3 input image limits, checked on uploaded images (a URL's image is the upstream's to check). */
export const BETA_VIDEO_IMAGE_LIMITS = {
  maxBytes: Math.floor(4.7 * 1024 * 1024),
  maxSide: 4096,
  minShortSide: 320,
  maxSideRatio: 3,
} as const;
