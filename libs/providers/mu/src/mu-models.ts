/**
 * The mu video models the gateway offers (upstreams.md §7.3): the public name and the upstream's id.
 * The gateway offers both as image-to-video only (the video-families issue), though the wire would
 * take `Mu-Video-2.3` without a frame.
 */
export interface MuVideoModel {
  upstreamId: string;
}

export const MU_VIDEO_MODELS: Readonly<Record<string, MuVideoModel>> = {
  'mu-2.3': { upstreamId: 'Mu-Video-2.3' },
  'mu-2.3-fast': { upstreamId: 'Mu-Video-2.3-Fast' },
};

export function muVideoModelOf(model: string): MuVideoModel | undefined {
  return Object.hasOwn(MU_VIDEO_MODELS, model) ? MU_VIDEO_MODELS[model] : undefined;
}

/** `duration` takes 6 (the default) or 10 seconds. */
export const MU_DURATIONS: readonly number[] = [6, 10];
export const MU_DEFAULT_DURATION = 6;

/** The 2.3 series' resolutions (`512P` is the 02 model's, `720P` the 01 series'); `768P` is the default. */
export const MU_RESOLUTIONS: readonly string[] = ['768P', '1080P'];
export const MU_DEFAULT_RESOLUTION = '768P';
/** `1080P` is made at 6 s only; 10 s only at `768P` (§7.3 †). */
export const MU_LONGEST_AT_1080P = 6;

/** `prompt` is at most this many characters. */
export const MU_MAX_PROMPT_CHARACTERS = 2000;

/** Wire fields the gateway passes on from `metadata`, each a boolean. */
export const MU_BOOLEAN_OPTIONS = ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'] as const;
