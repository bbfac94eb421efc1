/** What the simulator checks per model (upstreams.md §3.3); the gateway keeps its own copy of the rules. */
export interface AlphaSimModel {
  durations: { min: number; max: number; default: number };
  resolutions: readonly string[];
  defaultResolution: string;
  ratios: readonly string[];
  /** `audio: true` is accepted (q3 only). */
  audio: boolean;
}

const ALL_RESOLUTIONS = ['540p', '720p', '1080p'];
const COMMON_RATIOS = ['16:9', '9:16', '1:1'];
const WIDE_RATIOS = [...COMMON_RATIOS, '3:4', '4:3'];

const Q3: AlphaSimModel = {
  durations: { min: 1, max: 16, default: 5 },
  resolutions: ALL_RESOLUTIONS,
  defaultResolution: '720p',
  ratios: WIDE_RATIOS,
  audio: true,
};
const Q2: AlphaSimModel = { ...Q3, durations: { min: 1, max: 10, default: 5 }, audio: false };
const Q1: AlphaSimModel = {
  durations: { min: 5, max: 5, default: 5 },
  resolutions: ['1080p'],
  defaultResolution: '1080p',
  ratios: COMMON_RATIOS,
  audio: false,
};
/** `alpha2.0`: §3.3 gives it no rule of its own; the project convention is q1's 5 s at any resolution. */
const ALPHA_2_0: AlphaSimModel = { ...Q1, resolutions: ALL_RESOLUTIONS, defaultResolution: '720p' };

const Q2_NAMES = ['alphaq2-pro', 'alphaq2-turbo', 'alphaq2-pro-fast'];

const COMMON_MODELS: ReadonlyMap<string, AlphaSimModel> = new Map([
  ['alphaq3-pro', Q3],
  ['alphaq1', Q1],
  ['alphaq1-classic', Q1],
  ['alpha2.0', ALPHA_2_0],
]);

/**
 * The model a submission names on an endpoint. reference2video addresses the q2 generation as
 * `alphaq2` (§3.3†) and the other endpoints by the q2 model names; anything else is unavailable.
 */
export function alphaSimModel(name: string, reference: boolean): AlphaSimModel | undefined {
  const common = COMMON_MODELS.get(name);
  if (common) return common;
  if (reference) return name === 'alphaq2' ? Q2 : undefined;
  return Q2_NAMES.includes(name) ? Q2 : undefined;
}

/** Pixel sides of a video at a resolution and aspect ratio (the shorter side is the resolution). */
export function alphaFrameOf(resolution: string, aspectRatio: string): { width: number; height: number } {
  const short = Number.parseInt(resolution, 10);
  const [across, down] = aspectRatio.split(':').map(Number);
  const long = Math.round((short * Math.max(across, down)) / Math.min(across, down));
  return across >= down ? { width: long, height: short } : { width: short, height: long };
}
