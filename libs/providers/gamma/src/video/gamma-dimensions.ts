import { videoRefusal, type VideoRuled } from '@gateway/providers-core';
import { listed, oneOf, resolved } from './gamma-plan.util';
import { gammaSceneOf, GAMMA_SCENE_LIST, type GammaSceneType } from './gamma-scene';

export const GAMMA_RESOLUTIONS = ['720P', '1080P'] as const;
export type GammaResolution = (typeof GAMMA_RESOLUTIONS)[number];
export const GAMMA_MOTION_LEVELS = ['std', 'pro'] as const;
export type GammaMotionLevel = (typeof GAMMA_MOTION_LEVELS)[number];

/**
 * What a combined billing model name (`gamma-3.0-omni-1080p-ref-audio`, `gamma-2.6-motion-pro-1080p`,
 * `gamma-avatar-720p`) carried besides its base model, as the wire fields it decomposes onto
 * (upstreams.md §5.4).
 */
export interface GammaDimensions {
  resolution?: GammaResolution;
  /** Billing tier of motion control only: never sent. */
  motionLevel?: GammaMotionLevel;
  scene?: GammaSceneType;
  /** Reference-to-video: the images are references and at least one is needed. */
  reference: boolean;
  audio: boolean;
  offPeak: boolean;
}

type FlagName = 'reference' | 'audio' | 'offPeak';
/** The dimension keys read as on/off flags, and the field each sets. */
const FLAGS: Readonly<Record<string, FlagName>> = { ref: 'reference', audio: 'audio', offpeak: 'offPeak' };

/**
 * Reads `VideoRequest.dimensions`: `resolution` (`720p`, `1080p`), `motion_level` (`std`, `pro`),
 * `scene_type` (a scene or its short word: `motion`, `avatar`, `lipsync`, `template`), and the flags
 * `ref`, `audio`, `offpeak` (`true`/`false`). The names are data, so a value this family cannot use
 * is refused (on `model`, where it came from), and a key it has no use for is a warning.
 */
export function gammaDimensionsOf(
  dimensions: Readonly<Record<string, string>>,
  warnings: string[],
): VideoRuled<GammaDimensions> {
  const read: GammaDimensions = { reference: false, audio: false, offPeak: false };
  for (const [key, value] of Object.entries(dimensions)) {
    const problem = applyDimension(read, key, value);
    if (problem === 'unknown') warnings.push(`the model name's ${key} option has no effect on gamma`);
    else if (problem !== undefined)
      return videoRefusal('model', `the model name's ${key} must be ${problem}`);
  }
  return resolved(read);
}

/** Undefined when applied; `unknown` for a key of no use here; else the allowed values, for the refusal. */
function applyDimension(read: GammaDimensions, key: string, value: string): string | undefined {
  switch (key) {
    case 'resolution': {
      read.resolution = oneOf(value, GAMMA_RESOLUTIONS);
      return read.resolution ? undefined : 'one of 720p, 1080p';
    }
    case 'motion_level':
      read.motionLevel = oneOf(value, GAMMA_MOTION_LEVELS);
      return read.motionLevel ? undefined : `one of ${listed(GAMMA_MOTION_LEVELS)}`;
    case 'scene_type':
      read.scene = gammaSceneOf(value);
      return read.scene ? undefined : `one of ${GAMMA_SCENE_LIST}`;
  }
  if (!Object.hasOwn(FLAGS, key)) return 'unknown';
  const flag = oneOf(value, ['true', 'false']);
  if (flag === undefined) return 'true or false';
  read[FLAGS[key]] = flag === 'true';
  return undefined;
}
