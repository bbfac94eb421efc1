import {
  isJsonObject,
  parseJsonObject,
  videoRefusal,
  type JsonValue,
  type VideoRuled,
} from '@gateway/providers-core';
import { listed, oneOf, resolved } from './gamma-plan.util';

/** `SceneType` values (upstreams.md §5.4; interface spec `metadata.scene_type`). */
export const GAMMA_SCENE_TYPES = ['motion_control', 'avatar_i2v', 'lip_sync', 'template_effect'] as const;
export type GammaSceneType = (typeof GAMMA_SCENE_TYPES)[number];

/** The short words a combined billing name spells a scene with (`gamma-2.6-motion-pro-1080p`). */
const SCENE_WORDS: Readonly<Record<string, GammaSceneType>> = {
  motion: 'motion_control',
  avatar: 'avatar_i2v',
  lipsync: 'lip_sync',
  template: 'template_effect',
};

/** A scene's full name or its short word; undefined for anything else. */
export function gammaSceneOf(value: unknown): GammaSceneType | undefined {
  const word = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (word !== undefined && Object.hasOwn(SCENE_WORDS, word)) return SCENE_WORDS[word];
  return oneOf(value, GAMMA_SCENE_TYPES);
}

/** What the files of a task hold, as the scene rules count them. */
export interface GammaInputCount {
  images: number;
  videos: number;
}

/**
 * The inputs each scene needs (upstreams.md §5.4 names the scenes, not their inputs; this is the
 * project's reading, README): motion control moves a subject image by a reference video; an avatar
 * animates one portrait; lip sync re-voices a face video; a template effect applies the template
 * `ExtInfo.AdditionalParameters.template` names to an image.
 */
const SCENE_NEEDS: Readonly<Record<GammaSceneType, GammaInputCount & { what: string }>> = {
  motion_control: { images: 1, videos: 1, what: 'a subject image and a motion reference video' },
  avatar_i2v: { images: 1, videos: 0, what: 'a portrait image' },
  lip_sync: { images: 0, videos: 1, what: 'a face video' },
  template_effect: {
    images: 1,
    videos: 0,
    what: 'an image and metadata.ext_info.AdditionalParameters.template',
  },
};

/** Whether the task's inputs are enough for its scene; a refusal names what the scene needs. */
export function checkSceneInputs(
  scene: GammaSceneType,
  inputs: GammaInputCount,
  extInfo: string | undefined,
): VideoRuled<GammaSceneType> {
  const needs = SCENE_NEEDS[scene];
  const template = extInfo === undefined ? undefined : templateOf(extInfo);
  if (
    inputs.images < needs.images ||
    inputs.videos < needs.videos ||
    (scene === 'template_effect' && template === undefined)
  ) {
    return videoRefusal(
      'metadata.scene_type',
      `scene_type ${scene} needs ${needs.what} (images in image, images or metadata.file_infos; ` +
        'videos in metadata.video_url or metadata.file_infos)',
    );
  }
  return resolved(scene);
}

/**
 * `metadata.ext_info` as the wire's `ExtInfo`, a JSON **string**: an object is serialised, a string
 * must already hold a JSON object.
 */
export function gammaExtInfoOf(value: JsonValue | undefined): VideoRuled<string | undefined> {
  if (value === undefined || value === null) return resolved(undefined);
  if (isJsonObject(value)) return resolved(JSON.stringify(value));
  if (typeof value === 'string' && parseJsonObject(value) !== undefined) return resolved(value);
  return videoRefusal(
    'metadata.ext_info',
    'metadata.ext_info must be an object or a string holding a JSON object ' +
      '(e.g. {"AdditionalParameters":{"template":"…"}})',
  );
}

function templateOf(extInfo: string): string | undefined {
  const parameters = parseJsonObject(extInfo)?.AdditionalParameters;
  const template = isJsonObject(parameters) ? parameters.template : undefined;
  return typeof template === 'string' && template.trim() !== '' ? template : undefined;
}

/** The scene values a refusal lists. */
export const GAMMA_SCENE_LIST = listed(GAMMA_SCENE_TYPES);
