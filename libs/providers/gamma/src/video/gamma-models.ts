import type { VideoSubmissionStyle } from '@gateway/providers-core';
import type { GammaSceneType } from './gamma-scene';

/** One gamma model as the wire knows it (upstreams.md §5.4, interface spec "gamma video"). */
export interface GammaModel {
  /** `ModelVersion` on the wire. */
  version: string;
  maxSeconds: number;
  /** Whether it generates sound: §5.8 offers `sound` from 2.6 on. */
  audio: boolean;
  /** A scene the model name itself stands for. */
  scene?: GammaSceneType;
}

export const GAMMA_MIN_SECONDS = 5;
export const GAMMA_DEFAULT_SECONDS = 5;
/** The interface's seconds for gamma video on `/v1/videos` and `/v1/video/create`, within each model's range. */
const STYLE_SECONDS: readonly number[] = [5, 10, 15];

const GAMMA_MODELS: Readonly<Record<string, GammaModel>> = {
  'gamma-3.0-omni': { version: '3.0-Omni', maxSeconds: 15, audio: true },
  'gamma-2.6': { version: '2.6', maxSeconds: 10, audio: true },
  'gamma-2.5': { version: '2.5', maxSeconds: 10, audio: false },
  // The base of `gamma-avatar-720p`: the avatar scene on 2.6 (project convention, README).
  'gamma-avatar': { version: '2.6', maxSeconds: 10, audio: true, scene: 'avatar_i2v' },
};

export function gammaModelOf(model: string): GammaModel | undefined {
  return Object.hasOwn(GAMMA_MODELS, model) ? GAMMA_MODELS[model] : undefined;
}

/**
 * The `ModelVersion` to send for a channel's upstream model: a gamma model name is translated; any
 * other value is taken as a version already (a channel may map a model straight to one, e.g. `2.1`).
 */
export function gammaModelVersionOf(upstreamModel: string): string {
  return gammaModelOf(upstreamModel)?.version ?? upstreamModel;
}

/**
 * The durations a model takes from a style: 5, 10 or 15 within its range on the OpenAI-style and
 * unified routes (interface spec); any whole number of its range on the family's official route.
 */
export function gammaSecondsAllowed(model: GammaModel, style: VideoSubmissionStyle): number[] {
  if (style !== 'official') return STYLE_SECONDS.filter((seconds) => seconds <= model.maxSeconds);
  const range: number[] = [];
  for (let seconds = GAMMA_MIN_SECONDS; seconds <= model.maxSeconds; seconds += 1) range.push(seconds);
  return range;
}
