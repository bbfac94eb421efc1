/** What one model of §8.3 takes. */
export interface OmegaModelRules {
  /** t2v sends `size`; i2v a first frame in `img_url` and `resolution`; r2v reference videos. */
  input: 'text' | 'image' | 'reference';
  durations: readonly number[];
}

const TEXT: OmegaModelRules = { input: 'text', durations: [5, 10, 15] };
const IMAGE: OmegaModelRules = { input: 'image', durations: [5, 10, 15] };

export const OMEGA_MODELS: Readonly<Record<string, OmegaModelRules>> = {
  'omega2.6-t2v': TEXT,
  'omega2.6-i2v': IMAGE,
  'omega2.6-i2v-flash': IMAGE,
  'omega2.6-r2v': { input: 'reference', durations: [5, 10] },
  'omega2.5-t2v': TEXT,
  'omega2.5-i2v': IMAGE,
};

/** Text-to-video sizes by tier, `W*H` with an asterisk; the tier is the `SR` the query reports. */
export const OMEGA_SIZES: Readonly<Record<string, 720 | 1080>> = {
  '1280*720': 720,
  '720*1280': 720,
  '960*960': 720,
  '1088*832': 720,
  '832*1088': 720,
  '1920*1080': 1080,
  '1080*1920': 1080,
  '1440*1440': 1080,
  '1632*1248': 1080,
  '1248*1632': 1080,
};

export const OMEGA_RESOLUTIONS: Readonly<Record<string, 720 | 1080>> = { '720P': 720, '1080P': 1080 };

/** What the wire makes when the submission leaves it open ‡. */
export const OMEGA_DEFAULT_SIZE = '1920*1080';
export const OMEGA_DEFAULT_RESOLUTION = '1080P';
export const OMEGA_DEFAULT_DURATION = 5;
export const OMEGA_SHOT_TYPES: readonly string[] = ['single', 'multi'];
export const OMEGA_MAX_SEED = 2_147_483_647;
