/**
 * The video half of the beta Action API (upstreams.md §4.3): which `req_key` runs a video model in a
 * mode at a resolution, and how seconds are written. Beside the image table, so that the gateway's
 * `/bt` route and the `beta` channel type read one table (the channel type submits with it).
 */

/** What a video task does; the wire's mode follows the image count (0, 1, 2). */
export type BetaVideoMode = 'text' | 'first_frame' | 'first_last';
export type BetaVideoResolution = '720p' | '1080p';

/** The gateway's beta video models (interface spec). */
export const BETA_VIDEO_MODELS: readonly string[] = ['beta-video-3.0', 'beta-video-2.0'];

/** One line of the §4.3 table: a `req_key`, the model it runs, the modes it takes and its resolution. */
interface BetaVideoReqKey {
  reqKey: string;
  model: string;
  modes: readonly BetaVideoMode[];
  /** Undefined where the key does not fix one (the pro key). */
  resolution?: BetaVideoResolution;
}

/**
 * §4.3. `beta-video-3.0-pro` is no public model: it is the upstream model a channel maps
 * `beta-video-3.0` to for the pro key, which takes text or one image.
 */
const VIDEO_REQ_KEYS: readonly BetaVideoReqKey[] = [
  { reqKey: 'beta_t2v_v30', model: 'beta-video-3.0', modes: ['text'], resolution: '720p' },
  { reqKey: 'beta_i2v_first_v30', model: 'beta-video-3.0', modes: ['first_frame'], resolution: '720p' },
  { reqKey: 'beta_i2v_first_tail_v30', model: 'beta-video-3.0', modes: ['first_last'], resolution: '720p' },
  { reqKey: 'beta_t2v_v30_1080p', model: 'beta-video-3.0', modes: ['text'], resolution: '1080p' },
  { reqKey: 'beta_i2v_first_v30_1080', model: 'beta-video-3.0', modes: ['first_frame'], resolution: '1080p' },
  {
    reqKey: 'beta_i2v_first_tail_v30_1080',
    model: 'beta-video-3.0',
    modes: ['first_last'],
    resolution: '1080p',
  },
  { reqKey: 'beta_ti2v_v30_pro', model: 'beta-video-3.0-pro', modes: ['text', 'first_frame'] },
  { reqKey: 'beta_vgfm_t2v_l20', model: 'beta-video-2.0', modes: ['text'], resolution: '720p' },
  { reqKey: 'beta_vgfm_i2v_l20', model: 'beta-video-2.0', modes: ['first_frame'], resolution: '720p' },
];

/** The `req_key` running `model` in `mode` at `resolution`; undefined where the table has none. */
export function betaVideoReqKeyOf(
  model: string,
  mode: BetaVideoMode,
  resolution: string | null,
): string | undefined {
  return VIDEO_REQ_KEYS.find(
    (row) =>
      row.model === model &&
      row.modes.includes(mode) &&
      (row.resolution === undefined || row.resolution === resolution),
  )?.reqKey;
}

/**
 * What a `req_key` a client sends runs (the `/bt` route): a public video model, one mode and one
 * resolution; undefined for any other key (an image key, the pro key, which no public model names).
 */
export function betaVideoReqKeyEntryOf(
  reqKey: string,
): { model: string; mode: BetaVideoMode; resolution: BetaVideoResolution } | undefined {
  const row = VIDEO_REQ_KEYS.find((candidate) => candidate.reqKey === reqKey);
  if (!row || row.resolution === undefined || !BETA_VIDEO_MODELS.includes(row.model)) return undefined;
  return { model: row.model, mode: row.modes[0], resolution: row.resolution };
}

/** Whether the table names `model` (a public model or the pro upstream model). */
export function isBetaVideoTableModel(model: string): boolean {
  return VIDEO_REQ_KEYS.some((row) => row.model === model);
}

/** The modes and resolutions the table offers a model, for the rules to refuse what it cannot run. */
export function betaVideoOffer(model: string): {
  modes: BetaVideoMode[];
  resolutions: BetaVideoResolution[];
} {
  const rows = VIDEO_REQ_KEYS.filter((row) => row.model === model);
  return {
    modes: [...new Set(rows.flatMap((row) => row.modes))],
    resolutions: [...new Set(rows.flatMap((row) => (row.resolution ? [row.resolution] : [])))],
  };
}

/** Frames per second of the wire: `frames` is `24 × seconds + 1` (§4.3). */
const FRAMES_PER_SECOND = 24;

export function betaVideoFramesOf(seconds: number): number {
  return FRAMES_PER_SECOND * seconds + 1;
}

/** The whole seconds `frames` stands for; undefined when it is not `24 × seconds + 1`. */
export function betaVideoSecondsOf(frames: number): number | undefined {
  const seconds = (frames - 1) / FRAMES_PER_SECOND;
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
}
