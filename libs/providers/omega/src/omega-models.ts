/** The omega video models the gateway offers, by the base name before the `:` (upstreams.md §8.3). */
export type OmegaVideoKind = 'text_to_video' | 'image_to_video';

export const OMEGA_VIDEO_MODELS: Readonly<Record<string, OmegaVideoKind>> = {
  'omega2.6-t2v': 'text_to_video',
  'omega2.6-i2v': 'image_to_video',
};

/** The base model of a kind, for refusals that point to the other model. */
export function omegaBaseOfKind(kind: OmegaVideoKind): string {
  return Object.keys(OMEGA_VIDEO_MODELS).find((base) => OMEGA_VIDEO_MODELS[base] === kind) ?? '';
}

/** Text-to-video sizes by resolution tier, written `W*H` with an asterisk as the wire writes them. */
export const OMEGA_SIZES_BY_TIER: Readonly<Record<string, readonly string[]>> = {
  '720P': ['1280*720', '720*1280', '960*960', '1088*832', '832*1088'],
  '1080P': ['1920*1080', '1080*1920', '1440*1440', '1632*1248', '1248*1632'],
};

export const OMEGA_RESOLUTIONS: readonly string[] = Object.keys(OMEGA_SIZES_BY_TIER);

/** `duration` takes 5 (the default), 10 or 15 seconds. */
export const OMEGA_DURATIONS: readonly number[] = [5, 10, 15];
export const OMEGA_DEFAULT_DURATION = 5;

/** A gateway model name taken apart: `omega2.6-t2v:1280*720` is the base and the part after the colon. */
export interface OmegaModelName {
  base: string;
  kind: OmegaVideoKind;
  suffix: string;
}

/** Splits `<base>:<suffix>` for a known base; undefined for anything else (a bare base included). */
export function parseOmegaModelName(model: string): OmegaModelName | undefined {
  const colon = model.indexOf(':');
  if (colon < 0) return undefined;
  const base = model.slice(0, colon);
  if (!Object.hasOwn(OMEGA_VIDEO_MODELS, base)) return undefined;
  return { base, kind: OMEGA_VIDEO_MODELS[base], suffix: model.slice(colon + 1) };
}

/** The resolution tier (`720P`, `1080P`) of a size written `W*H`, or undefined for a size of no tier. */
export function omegaTierOfSize(size: string): string | undefined {
  return OMEGA_RESOLUTIONS.find((tier) => OMEGA_SIZES_BY_TIER[tier].includes(size));
}

/** Every size of every tier, for refusals. */
export function omegaSizeList(): string {
  return OMEGA_RESOLUTIONS.flatMap((tier) => OMEGA_SIZES_BY_TIER[tier]).join(', ');
}

/** The upstream model of a name as a channel sends it: the part before the colon. */
export function omegaUpstreamModelOf(upstreamModel: string): string {
  const colon = upstreamModel.indexOf(':');
  return colon < 0 ? upstreamModel : upstreamModel.slice(0, colon);
}

/** `metadata.shot_type` values. */
export const OMEGA_SHOT_TYPES: readonly string[] = ['single', 'multi'];
/** `metadata.seed` bounds. */
export const OMEGA_MAX_SEED = 2_147_483_647;
