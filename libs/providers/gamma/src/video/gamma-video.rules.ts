import {
  videoRefusal,
  type VideoCall,
  type VideoMode,
  type VideoPlan,
  type VideoRequest,
  type VideoRuled,
} from '@gateway/providers-core';
import { gammaExtrasOf, type GammaSubmission } from '../gamma-submission';
import { GAMMA_MOTION_LEVELS, gammaDimensionsOf, type GammaDimensions } from './gamma-dimensions';
import { gammaFilesOf, type GammaFiles } from './gamma-file-infos';
import { gammaModelOf, type GammaModel } from './gamma-models';
import { gammaOutputOf } from './gamma-output-config';
import { listed, metadataField, oneOf, resolved } from './gamma-plan.util';
import {
  checkSceneInputs,
  gammaExtInfoOf,
  GAMMA_SCENE_LIST,
  GAMMA_SCENE_TYPES,
  type GammaSceneType,
} from './gamma-scene';

/** `Prompt` ≤ 2000 characters (upstreams.md §5.4, §5.7). */
export const GAMMA_MAX_PROMPT_CHARACTERS = 2000;
/** `negative_prompt` of the official wire, ≤ 2500 characters (§5.8). */
const MAX_NEGATIVE_PROMPT_CHARACTERS = 2500;

export function servesGammaVideoModel(model: string): boolean {
  return gammaModelOf(model) !== undefined;
}

/**
 * The rules of `gamma-3.0-omni`, `gamma-2.6` and `gamma-2.5` (interface spec "gamma video";
 * upstreams.md §5.4): the request's fields and the combined billing name's options become the wire's
 * `FileInfos`, `LastFrameUrl`, `OutputConfig`, `SceneType` and `ExtInfo`, each checked against its
 * set; every refusal names the field and what it allows.
 */
export function planGammaVideo(request: VideoRequest): VideoPlan {
  const model = gammaModelOf(request.model);
  if (!model) return videoRefusal('model', `${request.model} is not a gamma video model`);
  if (request.remixOf !== undefined)
    return videoRefusal('model', `${request.model} has no remix or extension`);
  if (request.subjects.length > 0) {
    return videoRefusal('subjects', `${request.model} takes no subjects: send reference images in images`);
  }
  const warnings: string[] = [];
  const dimensions = gammaDimensionsOf(request.dimensions, warnings);
  if (!dimensions.ok) return dimensions;
  const output = gammaOutputOf(request, model, dimensions.value, warnings);
  if (!output.ok) return output;
  const files = gammaFilesOf(request, warnings);
  if (!files.ok) return files;
  const inputs = checkedInputs(request, model, dimensions.value, files.value);
  if (!inputs.ok) return inputs;
  const { prompt, negativePrompt, scene, extInfo } = inputs.value;
  const { fileInfos, lastFrameUrl } = files.value;
  const submission: GammaSubmission = {
    ...(prompt === undefined ? {} : { Prompt: prompt }),
    ...(negativePrompt === undefined ? {} : { NegativePrompt: negativePrompt }),
    ...(fileInfos.length === 0 ? {} : { FileInfos: fileInfos }),
    ...(lastFrameUrl === undefined ? {} : { LastFrameUrl: lastFrameUrl }),
    OutputConfig: output.value.config,
    ...(scene === undefined ? {} : { SceneType: scene }),
    ...(extInfo === undefined ? {} : { ExtInfo: extInfo }),
  };
  const call: VideoCall = {
    kind: 'video',
    family: 'gamma',
    mode: modeOf(files.value, dimensions.value),
    prompt: prompt ?? '',
    seconds: output.value.seconds,
    resolution: output.value.resolution.toLowerCase(),
    size: output.value.resolution,
    aspectRatio: output.value.aspectRatio ?? null,
    images: files.value.images,
    clips: files.value.videos.map(({ url, role }) => ({ type: 'video' as const, url, role })),
    subjects: [],
    metadata: request.metadata ?? null,
    extras: gammaExtrasOf(submission),
    remixOf: null,
  };
  return { ok: true, call, warnings };
}

interface CheckedInputs {
  prompt?: string;
  negativePrompt?: string;
  scene?: GammaSceneType;
  extInfo?: string;
}

/** Prompt, references, scene and its inputs, motion level: what depends on the files the task has. */
function checkedInputs(
  request: VideoRequest,
  model: GammaModel,
  dimensions: GammaDimensions,
  files: GammaFiles,
): VideoRuled<CheckedInputs> {
  const prompt = request.prompt !== undefined && request.prompt.trim() !== '' ? request.prompt : undefined;
  if (prompt !== undefined && prompt.length > GAMMA_MAX_PROMPT_CHARACTERS) {
    return videoRefusal('prompt', `prompt must be at most ${GAMMA_MAX_PROMPT_CHARACTERS} characters`);
  }
  if (prompt === undefined && files.counts.images === 0) {
    return videoRefusal('prompt', `prompt is required for ${request.model} without an image`);
  }
  if (dimensions.reference && files.counts.images === 0) {
    return videoRefusal(
      'images',
      "the model name's ref option needs at least one reference image in image or images",
    );
  }
  const negativePrompt = request.extras.negative_prompt;
  if (
    negativePrompt !== undefined &&
    (typeof negativePrompt !== 'string' || negativePrompt.length > MAX_NEGATIVE_PROMPT_CHARACTERS)
  ) {
    return videoRefusal(
      'negative_prompt',
      `negative_prompt must be a string of at most ${MAX_NEGATIVE_PROMPT_CHARACTERS} characters`,
    );
  }
  const motionLevel = motionLevelOf(request, dimensions);
  if (!motionLevel.ok) return motionLevel;
  const scene = sceneOf(request, model, dimensions);
  if (!scene.ok) return scene;
  const extInfo = gammaExtInfoOf(metadataField(request.metadata, 'ext_info'));
  if (!extInfo.ok) return extInfo;
  if (scene.value !== undefined) {
    const checked = checkSceneInputs(scene.value, files.counts, extInfo.value);
    if (!checked.ok) return checked;
  }
  return resolved({
    prompt,
    negativePrompt: negativePrompt === '' ? undefined : negativePrompt,
    scene: scene.value,
    extInfo: extInfo.value,
  });
}

/** `metadata.scene_type`, the model name's scene option, the scene a model stands for: they must agree. */
function sceneOf(
  request: VideoRequest,
  model: GammaModel,
  dimensions: GammaDimensions,
): VideoRuled<GammaSceneType | undefined> {
  const given = metadataField(request.metadata, 'scene_type');
  const asked = given === undefined || given === null ? undefined : oneOf(given, GAMMA_SCENE_TYPES);
  if (given !== undefined && given !== null && asked === undefined) {
    return videoRefusal('metadata.scene_type', `metadata.scene_type must be one of ${GAMMA_SCENE_LIST}`);
  }
  const named = dimensions.scene ?? model.scene;
  if (asked !== undefined && named !== undefined && asked !== named) {
    return videoRefusal(
      'metadata.scene_type',
      `metadata.scene_type ${asked} differs from the model name's ${named}`,
    );
  }
  return resolved(asked ?? named);
}

/** `metadata.motion_level` only selects a billing tier (§5.4): checked, agreed with the name, never sent. */
function motionLevelOf(request: VideoRequest, dimensions: GammaDimensions): VideoRuled<string | undefined> {
  const given = metadataField(request.metadata, 'motion_level');
  if (given === undefined || given === null) return resolved(dimensions.motionLevel);
  const level = oneOf(given, GAMMA_MOTION_LEVELS);
  if (level === undefined) {
    return videoRefusal(
      'metadata.motion_level',
      `metadata.motion_level must be one of ${listed(GAMMA_MOTION_LEVELS)}`,
    );
  }
  if (dimensions.motionLevel !== undefined && level !== dimensions.motionLevel) {
    return videoRefusal(
      'metadata.motion_level',
      `metadata.motion_level ${level} differs from the model name's ${dimensions.motionLevel}`,
    );
  }
  return resolved(level);
}

/** The mode by the images' roles (the generic defaults), the name's `ref` option and reference videos. */
function modeOf(files: GammaFiles, dimensions: GammaDimensions): VideoMode {
  if (files.lastFrameUrl !== undefined) return 'first_last';
  const referenced = files.images.some((image) => image.role === 'reference');
  if (dimensions.reference || referenced || files.counts.videos > 0) return 'reference';
  return files.counts.images > 0 ? 'first_frame' : 'text';
}
