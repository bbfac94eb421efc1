import { ApiProperty } from '@nestjs/swagger';
import {
  IntegerField,
  NestedListField,
  OPTIONAL_OR_NULL,
  StringField,
  StringListField,
  STORED_FIELD_LIMITS,
  VIDEO_REQUEST_LIMITS,
  VideoSubjectDto,
} from '@gateway/contracts';
import { ALPHA_VIDEO_MODELS } from '@gateway/providers';

const TEXT = { ...OPTIONAL_OR_NULL, maxLength: VIDEO_REQUEST_LIMITS.textLength };
const IMAGE_FORM =
  'an http(s) URL or Base64 with its `data:image/<png|jpeg|jpg|webp>;base64,` prefix; at least 128×128 ' +
  'pixels, aspect 1:4 to 4:1, at most 50 MB (a URL image: read from its header before anything is held)';

/**
 * Body of the alpha official routes (`POST /alpha/ent/v2/{text2video,img2video,start-end2video,
 * reference2video}`; upstreams.md §3.3 and the interface's reference-to-video request). The gateway
 * checks the fields it reads here; the pass-through fields (documented below, sent upstream as
 * written) and every value set are the alpha rules' (libs/providers/alpha), checked before anything
 * is held.
 */
export class AlphaVideoRequestDto {
  @StringField({
    description: `One of ${ALPHA_VIDEO_MODELS.join(', ')}.`,
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.textLength,
    example: 'alphaq2-pro',
  })
  model: string;

  @StringField({
    description: 'At most 5000 characters (the wire); required on text2video; ignored when `is_rec` is true.',
    ...OPTIONAL_OR_NULL,
    maxLength: VIDEO_REQUEST_LIMITS.promptLength,
    storable: true,
  })
  prompt?: string | null;

  @StringListField({
    description: `img2video: the start frame; start-end2video: the first and last frames; reference2video: 1–7 reference images instead of \`subjects\`. Each ${IMAGE_FORM}.`,
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.images,
    items: { nonEmpty: true },
  })
  images?: string[] | null;

  @NestedListField(() => VideoSubjectDto, {
    description: `reference2video: subjects \`{id, images (at most 3), voice_id?}\`, cited in the prompt as \`@<id>\`; 7 images in all. Each image ${IMAGE_FORM}.`,
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.subjects,
  })
  subjects?: VideoSubjectDto[] | null;

  @IntegerField({
    description: 'Seconds: q3 1–16, q2 1–10 (default 5), q1 and alpha2.0 5.',
    ...OPTIONAL_OR_NULL,
  })
  duration?: number | null;

  @StringField({ description: '`540p`, `720p` or `1080p` (q2 and q3 default 720p; q1 1080p only).', ...TEXT })
  resolution?: string | null;

  @StringField({
    description:
      '`16:9` (default), `9:16`, `1:1`; `3:4` and `4:3` on q2 and q3; text2video and reference2video.',
    ...TEXT,
  })
  aspect_ratio?: string | null;

  @ApiProperty({ required: false, description: 'q3 only: a video with dialogue and background sound.' })
  audio?: boolean;

  @ApiProperty({ required: false, enum: ['all', 'speech_only', 'sound_effect_only'] })
  audio_type?: string;

  @StringField({ description: 'A global voice id (no effect on q3).', ...TEXT })
  voice_id?: string | null;

  @ApiProperty({ required: false, description: 'Let the upstream recommend the prompt.' })
  is_rec?: boolean;

  @ApiProperty({ required: false, description: 'Background music from a preset library (not q3).' })
  bgm?: boolean;

  @ApiProperty({ required: false, description: '0 or absent: a random seed.' })
  seed?: number;

  @ApiProperty({ required: false, description: 'Generate in the off-peak queue.' })
  off_peak?: boolean;

  @ApiProperty({ required: false })
  watermark?: boolean;

  @ApiProperty({ required: false, description: '1 top-left, 2 top-right, 3 bottom-right, 4 bottom-left.' })
  wm_position?: number;

  @StringField({
    description: 'A watermark image URL.',
    ...OPTIONAL_OR_NULL,
    maxLength: VIDEO_REQUEST_LIMITS.urlLength,
  })
  wm_url?: string | null;

  @ApiProperty({
    required: false,
    description: `Passed through as is: at most ${STORED_FIELD_LIMITS.passThroughBytes} bytes as JSON (the wire takes 1,048,576 characters; the gateway keeps it with the task).`,
  })
  payload?: string;

  @ApiProperty({
    required: false,
    description: `A JSON string, passed through: at most ${STORED_FIELD_LIMITS.passThroughBytes} bytes as JSON.`,
  })
  meta_data?: string;

  @ApiProperty({
    required: false,
    enum: ['general', 'anime'],
    description: 'text2video; no effect on q2 and q3.',
  })
  style?: string;

  @ApiProperty({
    required: false,
    enum: ['auto', 'small', 'medium', 'large'],
    description: 'No effect on q2 and q3.',
  })
  movement_amplitude?: string;
}
