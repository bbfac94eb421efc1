/** What one model of §7.3 takes. */
export interface MuModelRules {
  resolutions: readonly string[];
  defaultResolution: string;
  /** `first_frame_image`: not taken, optional, or required. */
  firstFrame: 'none' | 'optional' | 'required';
  /** `last_frame_image` (start–end mode). */
  lastFrame: boolean;
  /** `subject_reference`, required. */
  subject: boolean;
}

const SERIES_01_TEXT: MuModelRules = {
  resolutions: ['720P'],
  defaultResolution: '720P',
  firstFrame: 'none',
  lastFrame: false,
  subject: false,
};
const SERIES_01_IMAGE: MuModelRules = { ...SERIES_01_TEXT, firstFrame: 'required' };
const SERIES_23: MuModelRules = {
  resolutions: ['768P', '1080P'],
  defaultResolution: '768P',
  firstFrame: 'optional',
  lastFrame: false,
  subject: false,
};

/** The models of upstreams.md §7.3. */
export const MU_MODELS: Readonly<Record<string, MuModelRules>> = {
  'Mu-Video-2.3': SERIES_23,
  'Mu-Video-2.3-Fast': { ...SERIES_23, firstFrame: 'required' },
  'Mu-Video-02': { ...SERIES_23, resolutions: ['512P', '768P', '1080P'], lastFrame: true },
  'T2V-01': SERIES_01_TEXT,
  'T2V-01-Director': SERIES_01_TEXT,
  'I2V-01': SERIES_01_IMAGE,
  'I2V-01-Director': SERIES_01_IMAGE,
  'I2V-01-live': SERIES_01_IMAGE,
  'S2V-01': { ...SERIES_01_TEXT, subject: true },
};

export const MU_DURATIONS: readonly number[] = [6, 10];
export const MU_DEFAULT_DURATION = 6;
/** 10 s only at these resolutions; 1080P only with 6 s (§7.3 †). */
export const MU_TEN_SECOND_RESOLUTIONS: readonly string[] = ['768P', '512P'];
export const MU_MAX_PROMPT_CHARACTERS = 2000;

/** The frame of a 16:9 video at each resolution (the wire reports `video_width`/`video_height`). */
export const MU_FRAME_SIZES: Readonly<Record<string, { width: number; height: number }>> = {
  '512P': { width: 912, height: 512 },
  '720P': { width: 1280, height: 720 },
  '768P': { width: 1366, height: 768 },
  '1080P': { width: 1920, height: 1080 },
};
