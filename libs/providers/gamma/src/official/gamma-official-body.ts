import {
  isJsonObject,
  UpstreamError,
  type JsonObject,
  type SerialisableObject,
  type VideoCall,
} from '@gateway/providers-core';
import { gammaSubmissionOf } from '../gamma-submission';
import { gammaModelOf } from '../video/gamma-models';
import { gammaOfficialNameOf, type GammaOfficialEndpoint } from './gamma-official-wire';

/** What one create on the §5.8 wire sends: the endpoint and its body. */
export interface GammaOfficialCreate {
  endpoint: GammaOfficialEndpoint;
  body: SerialisableObject;
}

/** `OutputConfig.AudioGeneration` as §5.8's `sound`. */
const SOUND_OF: Readonly<Record<string, string>> = { Enabled: 'on', Disabled: 'off' };
/** The `mode` that stands for a resolution when no motion level was asked (project convention‡). */
const MODE_OF_RESOLUTION: Readonly<Record<string, string>> = { '720P': 'std', '1080P': 'pro' };

/**
 * A call the gamma rules planned (its `CreateAigcVideoTask` fields, upstreams.md §5.4) as a §5.8
 * create, by the field correspondences of §5.8 read backwards:
 * - the endpoint: `omni-video` for `3.0-Omni` and for any reference image or video, `image2video` for
 *   a first frame (with `LastFrameUrl` as `image_tail`), else `text2video`;
 * - `FileInfos` images as `image` or `image_list[]` (`first_frame`, `end_frame`, or no type for a
 *   reference), videos as `video_list[]` (`ReferenceType` → `refer_type`, `KeepOriginalSound`);
 * - `Duration` → `duration` (a string), `AspectRatio` → `aspect_ratio` (not on image2video),
 *   `AudioGeneration` → `sound`, `Prompt`, `NegativePrompt`;
 * - `mode`: the motion level asked (`metadata.motion_level`), else `std` for 720P and `pro` for 1080P‡
 *   (the wire has no resolution field; its mode is the tier);
 * - `external_task_id`: the gateway's task id, which the upstream keeps unique per account‡.
 * What the wire has no field for is refused before any call, as a `bad_request` the task fails on
 * at once: a `SceneType`, an `ExtInfo`, a file by `FileId`. The
 * storage fields of `OutputConfig` (`StorageMode`, `MediaName` …) have no §5.8 counterpart and are
 * not sent.
 */
export function gammaOfficialCreateOf(
  call: VideoCall,
  upstreamModel: string,
  externalTaskId: string,
): GammaOfficialCreate {
  const submission = gammaSubmissionOf(call);
  for (const field of ['SceneType', 'ExtInfo', 'LastFrameFileId'] as const) {
    if (submission[field] !== undefined) throw notOnThisWire(`${field} has no field on the official wire`);
  }
  const files = filesOf(submission.FileInfos, call);
  const lastFrame = typeof submission.LastFrameUrl === 'string' ? submission.LastFrameUrl : undefined;
  const omni =
    gammaModelOf(upstreamModel)?.version === '3.0-Omni' ||
    files.references.length > 0 ||
    files.videos.length > 0;
  const endpoint: GammaOfficialEndpoint = omni
    ? 'omni-video'
    : files.firstFrame !== undefined
      ? 'image2video'
      : 'text2video';
  const config = isJsonObject(submission.OutputConfig) ? submission.OutputConfig : {};
  const body: SerialisableObject = {
    model_name: gammaOfficialNameOf(upstreamModel),
    ...(typeof submission.Prompt === 'string' ? { prompt: submission.Prompt } : {}),
    ...(typeof submission.NegativePrompt === 'string' ? { negative_prompt: submission.NegativePrompt } : {}),
    mode: modeOf(call, config),
    duration: String(config.Duration ?? call.seconds),
    ...(endpoint !== 'image2video' && typeof config.AspectRatio === 'string'
      ? { aspect_ratio: config.AspectRatio }
      : {}),
    ...soundOf(config),
    ...inputsOf(endpoint, files, lastFrame),
    external_task_id: externalTaskId,
  };
  return { endpoint, body };
}

interface OfficialFiles {
  firstFrame?: string;
  references: string[];
  videos: SerialisableObject[];
}

/** The images (the first one is the first frame unless the call is a reference-to-video) and videos. */
function filesOf(fileInfos: unknown, call: VideoCall): OfficialFiles {
  const files: OfficialFiles = { references: [], videos: [] };
  const infos = Array.isArray(fileInfos) ? fileInfos.filter(isJsonObject) : [];
  for (const info of infos) {
    if (info.Type !== 'Url' || typeof info.Url !== 'string') {
      throw notOnThisWire('a file by FileId has no field on the official wire: give its URL');
    }
    if (info.Category === 'Video') files.videos.push(videoOf(info));
    else if (files.firstFrame === undefined && call.mode !== 'reference') files.firstFrame = info.Url;
    else files.references.push(info.Url);
  }
  return files;
}

function videoOf(info: JsonObject): SerialisableObject {
  return {
    video_url: info.Url as string,
    ...(typeof info.ReferenceType === 'string' ? { refer_type: info.ReferenceType } : {}),
    ...(typeof info.KeepOriginalSound === 'boolean' ? { keep_original_sound: info.KeepOriginalSound } : {}),
  };
}

function inputsOf(
  endpoint: GammaOfficialEndpoint,
  files: OfficialFiles,
  lastFrame: string | undefined,
): SerialisableObject {
  if (endpoint === 'image2video') {
    return {
      image: files.firstFrame as string,
      ...(lastFrame === undefined ? {} : { image_tail: lastFrame }),
    };
  }
  if (endpoint === 'text2video') return {};
  const images: SerialisableObject[] = [
    ...(files.firstFrame === undefined ? [] : [{ image_url: files.firstFrame, type: 'first_frame' }]),
    ...(lastFrame === undefined ? [] : [{ image_url: lastFrame, type: 'end_frame' }]),
    ...files.references.map((url) => ({ image_url: url })),
  ];
  return {
    ...(images.length === 0 ? {} : { image_list: images }),
    ...(files.videos.length === 0 ? {} : { video_list: files.videos }),
  };
}

function modeOf(call: VideoCall, config: JsonObject): string {
  const level = call.metadata?.motion_level;
  if (typeof level === 'string' && ['std', 'pro'].includes(level.toLowerCase())) return level.toLowerCase();
  return typeof config.Resolution === 'string' ? (MODE_OF_RESOLUTION[config.Resolution] ?? 'std') : 'std';
}

function soundOf(config: JsonObject): SerialisableObject {
  const audio = config.AudioGeneration;
  return typeof audio === 'string' && Object.hasOwn(SOUND_OF, audio) ? { sound: SOUND_OF[audio] } : {};
}

/** Refused before any call: the status tells the step processor no upstream task exists. */
function notOnThisWire(message: string): UpstreamError {
  return new UpstreamError({ kind: 'bad_request', retryable: false, httpStatus: 400, message });
}
