/** What one theta model takes (upstreams.md §6.2; the image modes per model are the project's reading‡). */
export interface ThetaModelProfile {
  version: '1.0' | '1.5' | '2.0';
  /** `none`: text to video only; `optional`: text, or a first (and last) frame; `required`: image to video only. */
  images: 'none' | 'optional' | 'required';
  /** Reference images (role `reference_image`) instead of frames. */
  references: boolean;
  /** `generate_audio` and `draft` (1.5). */
  audioAndDraft: boolean;
}

const PRO_1_0: ThetaModelProfile = {
  version: '1.0',
  images: 'optional',
  references: false,
  audioAndDraft: false,
};

/** The 1.x upstream ids (§6.2). 2.0 (content with clips and `asset://` URLs) comes with its assets. */
const THETA_MODELS: Readonly<Record<string, ThetaModelProfile>> = {
  'eta-theta-1-0-pro-250528': PRO_1_0,
  'eta-theta-1-0-pro-fast-251015': PRO_1_0,
  'eta-theta-1-0-lite-t2v-250428': {
    version: '1.0',
    images: 'none',
    references: false,
    audioAndDraft: false,
  },
  'eta-theta-1-0-lite-i2v-250428': {
    version: '1.0',
    images: 'required',
    references: true,
    audioAndDraft: false,
  },
  'eta-theta-1-5-pro-251215': { version: '1.5', images: 'optional', references: false, audioAndDraft: true },
};

export function thetaModelOf(model: string): ThetaModelProfile | undefined {
  return Object.hasOwn(THETA_MODELS, model) ? THETA_MODELS[model] : undefined;
}

export const THETA_RESOLUTIONS = ['480p', '720p', '1080p'];
export const THETA_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
/** Follows the first frame; `keep_ratio` is what 1.0 image to video shows for the same†. */
export const ADAPTIVE_RATIOS = ['adaptive', 'keep_ratio'];
export const THETA_DEFAULT_RESOLUTION = '720p';
export const THETA_DEFAULT_RATIO = '16:9';
export const THETA_FRAMES_PER_SECOND = 24;

/** The pixels of an output: the resolution's short side at the ratio, sides rounded to multiples of 8. */
export function thetaFrameSize(resolution: string, ratio: string): { width: number; height: number } {
  const short = Number.parseInt(resolution, 10);
  const [ratioWidth, ratioHeight] = ratio.split(':').map(Number);
  const long =
    Math.round((short * Math.max(ratioWidth, ratioHeight)) / Math.min(ratioWidth, ratioHeight) / 8) * 8;
  return ratioWidth >= ratioHeight ? { width: long, height: short } : { width: short, height: long };
}

/** The ratio of the table nearest `width`:`height` (what `adaptive` resolves to). */
export function closestThetaRatio(width: number, height: number): string {
  const target = Math.log(width / height);
  const distance = (ratio: string) => {
    const [ratioWidth, ratioHeight] = ratio.split(':').map(Number);
    return Math.abs(Math.log(ratioWidth / ratioHeight) - target);
  };
  return THETA_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}
