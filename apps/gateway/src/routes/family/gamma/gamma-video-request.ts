import { checkHttpUrl, VIDEO_REQUEST_LIMITS } from '@gateway/contracts';
import {
  isBase64Text,
  type SerialisableObject,
  type VideoClip,
  type VideoImage,
} from '@gateway/providers-core';
import { gammaModelOfOfficialName, type GammaOfficialEndpoint } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import { decodeBase64 } from '@gateway/images';
import { validTaskBody } from '../../../tasks/task-body.util';
import { uploadedImageUrl, videoImageUrlOf } from '../../modality/videos/video-image-input';
import type { VideoRequestDraft } from '../../modality/videos/video-request.mapper';
import {
  GammaVideoRequestDto,
  type GammaImageItemDto,
  type GammaVideoItemDto,
} from './gamma-video-request.dto';

/** A §5.8 body read into the platform's request, with what the route itself ignored. */
export interface GammaVideoDraft {
  draft: VideoRequestDraft;
  warnings: string[];
}

/** The fields only some endpoints take (upstreams.md §5.8, "Request fields"). */
const ENDPOINTS_OF_FIELD: Readonly<Record<string, readonly GammaOfficialEndpoint[]>> = {
  aspect_ratio: ['text2video', 'omni-video'],
  cfg_scale: ['text2video', 'image2video'],
  camera_control: ['text2video', 'image2video'],
  image: ['image2video'],
  image_tail: ['image2video'],
  static_mask: ['image2video'],
  dynamic_masks: ['image2video'],
  image_list: ['omni-video'],
  video_list: ['omni-video'],
  element_list: ['omni-video'],
  multi_shot: ['omni-video'],
  shot_type: ['omni-video'],
  multi_prompt: ['omni-video'],
};
/** Fields of the wire that no gamma channel has a place for (§5.4 has no counterpart). */
const IGNORED_FIELDS: readonly string[] = [
  'cfg_scale',
  'camera_control',
  'static_mask',
  'dynamic_masks',
  'element_list',
  'multi_shot',
  'shot_type',
  'multi_prompt',
  'watermark_info',
  'callback_url',
];
const READ_FIELDS: ReadonlySet<string> = new Set([
  'model_name',
  'prompt',
  'negative_prompt',
  'mode',
  'duration',
  'aspect_ratio',
  'sound',
  'image',
  'image_tail',
  'image_list',
  'video_list',
  'external_task_id',
  ...IGNORED_FIELDS,
]);
const AUDIO_OF_SOUND: Readonly<Record<string, string>> = { on: 'Enabled', off: 'Disabled' };
const ROLE_OF_TYPE: Readonly<Record<string, VideoImage['role']>> = {
  first_frame: 'first_frame',
  end_frame: 'last_frame',
};

/**
 * Reads a §5.8 create body into the request the gamma rules plan (style `official`), by the design
 * note of libs/providers/gamma/README.md: `model_name` to the gateway's model (other names as given),
 * `duration` to seconds, `sound` to `output_config.audio_generation`, `mode` to `metadata.motion_level`
 * (a billing tier), `image`/`image_tail`/`image_list` to first, last and reference images,
 * `video_list` to reference videos (with `keep_original_sound`, to `metadata.file_infos`, the one
 * place the field exists), `negative_prompt` as an extra. `external_task_id` is kept in the stored
 * call's metadata, for the answers' `task_info`. A field another endpoint takes is refused; the
 * fields no gamma channel has a place for are ignored with a warning. Throws the client's 400.
 */
/** The gamma routes' body, declared on each route: the DTO, and the checks of what a task row stores. */
export const GAMMA_VIDEO_BODY: BodyDeclaration<GammaVideoRequestDto> = {
  dto: GammaVideoRequestDto,
  validate: (dto, body) => validTaskBody(dto, body, { named: READ_FIELDS }),
};

/** `body` as the route declared it, or as sent (then validated by the same declaration). */
export function toGammaVideoDraft(
  endpoint: GammaOfficialEndpoint,
  declared: DeclaredBody<GammaVideoRequestDto> | unknown,
): GammaVideoDraft {
  const request = declaredBodyOf(declared, GAMMA_VIDEO_BODY);
  const fields = request.fields();
  const body = request.raw;
  const given = Object.entries(body as Record<string, unknown>).filter(
    ([, value]) => value !== undefined && value !== null,
  );
  for (const [name] of given) {
    const endpoints = Object.hasOwn(ENDPOINTS_OF_FIELD, name) ? ENDPOINTS_OF_FIELD[name] : undefined;
    if (endpoints && !endpoints.includes(endpoint)) {
      throw GatewayError.invalidRequest(
        `${name} is not a field of ${endpoint}; it belongs to ${endpoints.join(', ')}.`,
        name,
      );
    }
  }
  if (endpoint === 'image2video' && !fields.image) {
    throw GatewayError.invalidRequest('image is required on image2video: the first frame.', 'image');
  }
  const warnings = given
    .map(([name]) => name)
    .filter((name) => IGNORED_FIELDS.includes(name) || !READ_FIELDS.has(name))
    .map((name) => `${name} is ignored: gamma channels have no such option`);
  const images = imagesOf(fields);
  const videos = fields.video_list ?? [];
  const keepsSound = videos.some((video) => typeof video.keep_original_sound === 'boolean');
  const metadata: SerialisableObject = {
    ...(fields.sound ? { output_config: { audio_generation: AUDIO_OF_SOUND[fields.sound] } } : {}),
    ...(fields.mode ? { motion_level: fields.mode } : {}),
    ...(fields.external_task_id ? { external_task_id: fields.external_task_id } : {}),
    ...(keepsSound ? { file_infos: fileInfosOf(images, videos) } : {}),
  };
  return {
    draft: {
      modelName: gammaModelOfOfficialName(fields.model_name),
      fields: {
        style: 'official',
        ...(fields.prompt ? { prompt: fields.prompt } : {}),
        ...(fields.duration ? { seconds: Number(fields.duration) } : {}),
        ...(fields.aspect_ratio ? { aspectRatio: fields.aspect_ratio } : {}),
        // With file_infos, only the last frame travels as an image: the list gives the rest.
        images: keepsSound ? images.filter((image) => image.role === 'last_frame') : images,
        clips: keepsSound ? [] : videos.map(clipOf),
        subjects: [],
        ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
        extras: fields.negative_prompt ? { negative_prompt: fields.negative_prompt } : {},
      },
    },
    warnings,
  };
}

function imagesOf(fields: GammaVideoRequestDto): VideoImage[] {
  const images: VideoImage[] = [];
  if (fields.image) images.push(image('first_frame', fields.image, 'image'));
  if (fields.image_tail) images.push(image('last_frame', fields.image_tail, 'image_tail'));
  (fields.image_list ?? []).forEach((item: GammaImageItemDto, index) => {
    const role = item.type ? ROLE_OF_TYPE[item.type] : 'reference';
    images.push(image(role, item.image_url, `image_list[${index}].image_url`));
  });
  return images;
}

/** An image as the row keeps it: a URL as sent, raw Base64 as a `data:` URI (gamma's rules refuse both but URLs). */
function image(role: VideoImage['role'], value: string, param: string): VideoImage {
  if (!isBase64Text(value)) return { role, url: videoImageUrlOf(value, param), source: param };
  const bytes = decodeBase64(value);
  if (!bytes) throw GatewayError.invalidRequest(`${param} is neither a URL nor Base64.`, param);
  return { role, url: uploadedImageUrl(bytes, param), source: param };
}

function clipOf(video: GammaVideoItemDto, index: number): VideoClip {
  return {
    type: 'video',
    url: videoUrlOf(video, index),
    role: video.refer_type ?? 'reference',
    source: `video_list[${index}].video_url`,
  };
}

function videoUrlOf(video: GammaVideoItemDto, index: number): string {
  const param = `video_list[${index}].video_url`;
  if (
    checkHttpUrl(video.video_url) !== undefined ||
    video.video_url.length > VIDEO_REQUEST_LIMITS.urlLength
  ) {
    throw GatewayError.invalidRequest(`${param} must be an http(s) URL.`, param);
  }
  return video.video_url;
}

/** `metadata.file_infos` (snake_case, §5.4) for the images but the last frame and the videos. */
function fileInfosOf(
  images: readonly VideoImage[],
  videos: readonly GammaVideoItemDto[],
): SerialisableObject[] {
  return [
    ...images
      .filter((item) => item.role !== 'last_frame')
      .map((item) => ({ type: 'Url', category: 'Image', url: item.url })),
    ...videos.map((video, index) => ({
      type: 'Url',
      category: 'Video',
      url: videoUrlOf(video, index),
      ...(video.refer_type ? { reference_type: video.refer_type } : {}),
      ...(typeof video.keep_original_sound === 'boolean'
        ? { keep_original_sound: video.keep_original_sound }
        : {}),
    })),
  ];
}
