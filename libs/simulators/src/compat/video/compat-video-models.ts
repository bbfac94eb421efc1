/**
 * The per-family create rules of the compat videos wire (upstreams.md §2.4) as data. A model outside
 * the table (`nu-*`, `xi-*`, a relay's own names) follows the relay rules: any `seconds` that is a
 * positive integer, any `size`, any number of images. Ids starting `unknown-` are refused with 404,
 * as on chat completions.
 */
export interface CompatVideoRules {
  family: 'delta-2' | 'delta-2-pro' | 'epsilon' | 'epsilon-extend' | 'zeta' | 'relay';
  /** Accepted `seconds`; `any`: a positive integer. */
  seconds: readonly string[] | 'any';
  defaultSeconds: string;
  /** Fixed-duration models: any other `seconds` is silently corrected to this (†). */
  fixedSeconds?: string;
  /** `seconds` that must be `"8"` at these sizes, with images, or always (`epsilon_*`). */
  eightSeconds?: { sizes: readonly string[]; withImages: boolean; always: boolean };
  sizes: readonly string[] | 'any';
  defaultSize: string;
  aspectRatios?: readonly string[];
  maxImages: number;
  /** `delta-*`: the one input image must have the requested size. */
  imageMatchesSize: boolean;
  /** `zeta-video-*`: create is multipart only. */
  multipartOnly: boolean;
}

const DELTA_SIZES = ['720x1280', '1280x720'];
const EPSILON_SIZES = ['1280x720', '720x1280', '1920x1080', '3840x2160'];
const EPSILON_HIGH_SIZES = ['1920x1080', '3840x2160'];
const ZETA_SIZES = ['720P', '1080P'];

const DELTA = {
  seconds: ['4', '8', '12'],
  defaultSeconds: '4',
  defaultSize: '720x1280',
  maxImages: 1,
  imageMatchesSize: true,
  multipartOnly: false,
} as const;

const EPSILON = {
  family: 'epsilon',
  seconds: ['4', '6', '8'],
  defaultSeconds: '4',
  eightSeconds: { sizes: EPSILON_HIGH_SIZES, withImages: true, always: false },
  sizes: EPSILON_SIZES,
  defaultSize: '1280x720',
  maxImages: 10,
  imageMatchesSize: false,
  multipartOnly: false,
} as const;

const ZETA = {
  family: 'zeta',
  seconds: ['6', '10', '15'],
  defaultSeconds: '6',
  sizes: ZETA_SIZES,
  defaultSize: '720P',
  aspectRatios: ['2:3', '3:2', '1:1'],
  maxImages: 6,
  imageMatchesSize: false,
  multipartOnly: true,
} as const;

const RULES: Record<string, CompatVideoRules> = {
  'delta-2': { ...DELTA, family: 'delta-2', sizes: DELTA_SIZES },
  'delta-2-pro': { ...DELTA, family: 'delta-2-pro', sizes: [...DELTA_SIZES, '1024x1792', '1792x1024'] },
  epsilon_3_1: EPSILON,
  'epsilon_3_1-fast': EPSILON,
  'epsilon_3_1-extend': {
    ...EPSILON,
    family: 'epsilon-extend',
    // Extensions are 720p, 16:9 or 9:16 only, and always 8 s.
    sizes: ['1280x720', '720x1280'],
    eightSeconds: { sizes: [], withImages: true, always: true },
    defaultSeconds: '8',
  },
  'zeta-video-3': ZETA,
  'zeta-video-3-pro': { ...ZETA, fixedSeconds: '10', defaultSeconds: '10' },
  'zeta-video-3-max': { ...ZETA, fixedSeconds: '15', defaultSeconds: '15' },
};

const RELAY_RULES: CompatVideoRules = {
  family: 'relay',
  seconds: 'any',
  defaultSeconds: '5',
  sizes: 'any',
  defaultSize: '1280x720',
  maxImages: 16,
  imageMatchesSize: false,
  multipartOnly: false,
};

/** The first-party upstream's default model (upstreams.md §2.4). */
export const DEFAULT_VIDEO_MODEL = 'delta-2';

/** The rules of a model id, or undefined for an id the wire does not serve. */
export function compatVideoRulesOf(model: string): CompatVideoRules | undefined {
  if (model.startsWith('unknown-')) return undefined;
  return RULES[model] ?? RELAY_RULES;
}

/** Pixel dimensions of a wire size (`1280x720`; `720P` and `1080P` are landscape). */
export function videoDimensionsOf(size: string): { width: number; height: number } {
  const pixels = /^(\d{2,4})x(\d{2,4})$/.exec(size);
  if (pixels) return { width: Number(pixels[1]), height: Number(pixels[2]) };
  if (/^1080p$/i.test(size)) return { width: 1920, height: 1080 };
  return { width: 1280, height: 720 };
}
