import { ApiProperty } from '@nestjs/swagger';
import {
  BooleanField,
  EnumField,
  JsonObjectField,
  NestedListField,
  NumberField,
  OPTIONAL_OR_NULL,
  StringField,
  VIDEO_REQUEST_LIMITS,
} from '@gateway/contracts';
import { GAMMA_OFFICIAL_MODEL_NAMES } from '@gateway/providers';

/** Prompt and negative prompt: at most 2500 characters each (upstreams.md §5.8). */
export const GAMMA_OFFICIAL_PROMPT_LENGTH = 2500;
const TEXT = { ...OPTIONAL_OR_NULL, maxLength: VIDEO_REQUEST_LIMITS.textLength };
const IMAGE_FORM = 'an http(s) URL, or raw Base64 without a `data:` prefix (gamma channels take URLs only)';

/** One `image_list[]` item of omni-video. */
export class GammaImageItemDto {
  @StringField({ description: `The image: ${IMAGE_FORM}.`, nonEmpty: true })
  image_url: string;

  @EnumField(['first_frame', 'end_frame'], {
    description: 'The first or the last frame; omitted, a reference image.',
    ...OPTIONAL_OR_NULL,
  })
  type?: string | null;
}

/** One `video_list[]` item of omni-video. */
export class GammaVideoItemDto {
  @StringField({ description: 'The reference video, an http(s) URL.', nonEmpty: true })
  video_url: string;

  @EnumField(['feature', 'base'], { description: 'How the video is referenced.', ...OPTIONAL_OR_NULL })
  refer_type?: string | null;

  @BooleanField({ description: "Keep the video's own sound.", ...OPTIONAL_OR_NULL })
  keep_original_sound?: boolean | null;
}

/**
 * Body of `POST /gamma/v1/videos/{text2video,image2video,omni-video}` (upstreams.md §5.8). The gateway
 * checks the fields' types here and which endpoint takes which input; the value sets (durations by
 * model, ratios, sound) are the gamma rules' (libs/providers/gamma), checked before anything is held.
 */
export class GammaVideoRequestDto {
  @StringField({
    description: `${GAMMA_OFFICIAL_MODEL_NAMES.join(', ')}, or a gateway model name (combined billing names included: \`gamma-2.6-motion-pro-1080p\`).`,
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.textLength,
    example: 'gamma-v2-6',
  })
  model_name: string;

  @StringField({
    description: 'What the video shows; at most 2500 characters; required without an image.',
    ...OPTIONAL_OR_NULL,
    maxLength: GAMMA_OFFICIAL_PROMPT_LENGTH,
    storable: true,
  })
  prompt?: string | null;

  @StringField({
    description: 'What the video should not show; at most 2500 characters.',
    ...OPTIONAL_OR_NULL,
    maxLength: GAMMA_OFFICIAL_PROMPT_LENGTH,
    storable: true,
  })
  negative_prompt?: string | null;

  @EnumField(['std', 'pro'], {
    description: 'The billing tier; never changes the video.',
    ...OPTIONAL_OR_NULL,
  })
  mode?: string | null;

  @StringField({
    description: 'Seconds as a string: `"5"` or `"10"` (`gamma-3.0-omni`: 5–15). Default 5.',
    ...OPTIONAL_OR_NULL,
    pattern: /^\d{1,3}$/,
    patternHint: 'a whole number of seconds written as a string, e.g. "5"',
  })
  duration?: string | null;

  @StringField({ description: '`16:9`, `9:16` or `1:1` (text2video, omni-video).', ...TEXT })
  aspect_ratio?: string | null;

  @EnumField(['on', 'off'], { description: 'Sound (2.6 and later).', ...OPTIONAL_OR_NULL })
  sound?: string | null;

  @NumberField({
    description: 'Prompt adherence, 0–1: no gamma channel field; ignored.',
    ...OPTIONAL_OR_NULL,
    min: 0,
    max: 1,
  })
  cfg_scale?: number | null;

  @StringField({
    description: `image2video: the first frame, ${IMAGE_FORM}.`,
    ...OPTIONAL_OR_NULL,
    nonEmpty: true,
  })
  image?: string | null;

  @StringField({
    description: `image2video: the last frame, ${IMAGE_FORM}.`,
    ...OPTIONAL_OR_NULL,
    nonEmpty: true,
  })
  image_tail?: string | null;

  @NestedListField(() => GammaImageItemDto, {
    description:
      'omni-video: images (`first_frame`, `end_frame`, or references); 3 files in all with videos.',
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.images,
  })
  image_list?: GammaImageItemDto[] | null;

  @NestedListField(() => GammaVideoItemDto, {
    description: 'omni-video: reference videos.',
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.images,
  })
  video_list?: GammaVideoItemDto[] | null;

  @JsonObjectField({
    description: '`{enabled}`: the gateway adds no watermark; ignored.',
    ...OPTIONAL_OR_NULL,
  })
  watermark_info?: Record<string, unknown> | null;

  @StringField({ description: 'Callbacks are not sent; ignored (query the task instead).', ...TEXT })
  callback_url?: string | null;

  @StringField({ description: 'Your own id for the task, echoed in `task_info`.', ...TEXT, storable: true })
  external_task_id?: string | null;

  @ApiProperty({ required: false, description: 'text2video, image2video: no gamma channel field; ignored.' })
  camera_control?: unknown;

  @ApiProperty({ required: false, description: 'image2video: no gamma channel field; ignored.' })
  static_mask?: unknown;

  @ApiProperty({ required: false, description: 'image2video: no gamma channel field; ignored.' })
  dynamic_masks?: unknown;

  @ApiProperty({
    required: false,
    description:
      'omni-video: `element_list`, `multi_shot`, `shot_type`, `multi_prompt`: no gamma channel field; ignored.',
  })
  element_list?: unknown;
}
