/** The model generations of upstreams.md §3.3, whose rules differ. */
export type AlphaGeneration = 'q3' | 'q2' | 'q1' | '2.0';

export const ALPHA_RESOLUTIONS = ['540p', '720p', '1080p'] as const;
export type AlphaResolution = (typeof ALPHA_RESOLUTIONS)[number];

/** `aspect_ratio` values of every model; q2 and q3 add ALPHA_PORTRAIT_LANDSCAPE_RATIOS. */
const COMMON_RATIOS = ['16:9', '9:16', '1:1'] as const;
const ALPHA_PORTRAIT_LANDSCAPE_RATIOS = ['3:4', '4:3'] as const;

export interface AlphaModelRules {
  name: string;
  generation: AlphaGeneration;
  /** Whole seconds, inclusive; `min === max` is a fixed duration. */
  duration: { min: number; max: number; default: number };
  resolutions: readonly AlphaResolution[];
  defaultResolution: AlphaResolution;
  ratios: readonly string[];
  /** Whether `style` and `movement_amplitude` change anything (not on q2/q3, §3.3). */
  honoursStyle: boolean;
  /** `audio: true` (audio-visual generation) exists on q3 only. */
  audio: boolean;
  /** `bgm` exists on every generation but q3. */
  bgm: boolean;
  /** `voice_id` has no effect on q3. */
  voice: boolean;
}

const Q3: Omit<AlphaModelRules, 'name'> = {
  generation: 'q3',
  duration: { min: 1, max: 16, default: 5 },
  resolutions: ALPHA_RESOLUTIONS,
  defaultResolution: '720p',
  ratios: [...COMMON_RATIOS, ...ALPHA_PORTRAIT_LANDSCAPE_RATIOS],
  honoursStyle: false,
  audio: true,
  bgm: false,
  voice: false,
};

const Q2: Omit<AlphaModelRules, 'name'> = {
  ...Q3,
  generation: 'q2',
  duration: { min: 1, max: 10, default: 5 },
  audio: false,
  bgm: true,
  voice: true,
};

/** q1 makes 5-second videos at 1080p only (§3.3). */
const Q1: Omit<AlphaModelRules, 'name'> = {
  generation: 'q1',
  duration: { min: 5, max: 5, default: 5 },
  resolutions: ['1080p'],
  defaultResolution: '1080p',
  ratios: COMMON_RATIOS,
  honoursStyle: true,
  audio: false,
  bgm: true,
  voice: true,
};

/**
 * `alpha2.0` predates the q generations and §3.3 gives it no rule of its own: by project convention
 * it keeps the older generation's fixed 5 seconds, with every resolution (default 720p) and the
 * three common ratios; the upstream has the last word on anything finer.
 */
const ALPHA_2_0: Omit<AlphaModelRules, 'name'> = {
  ...Q1,
  generation: '2.0',
  resolutions: ALPHA_RESOLUTIONS,
  defaultResolution: '720p',
};

const RULES_BY_MODEL: ReadonlyMap<string, AlphaModelRules> = new Map(
  (
    [
      ['alphaq3-pro', Q3],
      ['alphaq2-pro', Q2],
      ['alphaq2-turbo', Q2],
      ['alphaq2-pro-fast', Q2],
      ['alphaq1', Q1],
      ['alphaq1-classic', Q1],
      ['alpha2.0', ALPHA_2_0],
    ] as const
  ).map(([name, rules]) => [name, { name, ...rules }]),
);

/** The seven model names of the family (interface spec), in its order. */
export const ALPHA_VIDEO_MODELS: readonly string[] = [...RULES_BY_MODEL.keys()];

export function alphaModelRules(model: string): AlphaModelRules | undefined {
  return RULES_BY_MODEL.get(model);
}

/** §3.3†: reference2video addresses the q2 generation as `alphaq2`, whichever q2 model was asked. */
const Q2_SERIES = /^alphaq2(-|$)/;

export function alphaReferenceModelName(model: string): string {
  return Q2_SERIES.test(model) ? 'alphaq2' : model;
}
