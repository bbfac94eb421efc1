import { OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { PASS_THROUGH_CAP } from '../validation/stored-field-limits.constants';
import { JsonObjectField } from '../validation/nested-field.decorator';
import { StringField, StringListField } from '../validation/scalar-field.decorator';
import { InputReferenceField, VideoSecondsField } from './video-request-fields.check';
import { VIDEO_REQUEST_LIMITS } from './video-values.constants';

const TEXT = { ...OPTIONAL_OR_NULL, maxLength: VIDEO_REQUEST_LIMITS.textLength };

/** What every video request names: the model and the prompt. */
export class VideoModelPromptDto {
  @StringField({
    description:
      'A video model, or a combined billing name: the base model and billing words (`gamma-2.6-motion-pro-1080p`).',
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.textLength,
    example: 'delta-2',
  })
  model: string;

  @StringField({
    description: `What the video shows, at most ${VIDEO_REQUEST_LIMITS.promptLength} characters. NUL and unpaired surrogate characters are refused.`,
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.promptLength,
    storable: true,
    example: 'A paper boat drifting down a rainy street',
  })
  prompt: string;
}

/**
 * Body of `POST /v1/videos`, JSON or multipart/form-data (gateway interface, "Video task request,
 * OpenAI-style"). Which durations, sizes and ratios a model takes is its family's rule, checked after
 * this; other fields are kept for families whose wire has them.
 */
export class VideoCreateRequestDto extends VideoModelPromptDto {
  @VideoSecondsField(
    'Duration in seconds (`"8"`). Precedence: seconds, duration, metadata.seconds, metadata.duration, metadata.video_duration; none: the family default.',
  )
  seconds?: string | number | null;

  @VideoSecondsField('Duration in seconds, when `seconds` is not given.')
  duration?: string | number | null;

  @StringField({
    description:
      'Size (`1280x720`, `720P` …). Resolution precedence: metadata.output_config.resolution, then size, then the model default.',
    ...TEXT,
  })
  size?: string | null;

  @StringField({ description: 'Aspect ratio (`16:9` …), for families that take one.', ...TEXT })
  aspect_ratio?: string | null;

  @StringField({
    description: 'First frame: an http(s) URL or a `data:image/…;base64,` URI.',
    ...OPTIONAL_OR_NULL,
    nonEmpty: true,
  })
  image?: string | null;

  @StringListField({
    description: 'Reference images: http(s) URLs or `data:image/…;base64,` URIs.',
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.images,
    items: { nonEmpty: true },
  })
  images?: string[] | null;

  @InputReferenceField()
  input_reference?: unknown;

  @JsonObjectField({
    description: `Extended parameters (\`output_config\`, \`last_frame_url\`, \`video_url\`, \`scene_type\` …), passed to wires that have a place for them. ${PASS_THROUGH_CAP}`,
    ...OPTIONAL_OR_NULL,
  })
  metadata?: Record<string, unknown> | null;
}

/** Body of `POST /v1/videos/{video_id}/remix` (JSON): a new video from a completed one of yours. */
export class VideoRemixRequestDto {
  @StringField({
    description: `What to change, at most ${VIDEO_REQUEST_LIMITS.promptLength} characters.`,
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.promptLength,
    storable: true,
  })
  prompt: string;

  @StringField({
    description: 'The model of the remix (`epsilon_3_1-extend`); default: the source video’s.',
    ...TEXT,
    nonEmpty: true,
  })
  model?: string | null;

  @VideoSecondsField('Duration of the remix in seconds, where the family takes one.')
  seconds?: string | number | null;

  @JsonObjectField({
    description: `Extended parameters, as on create. ${PASS_THROUGH_CAP}`,
    ...OPTIONAL_OR_NULL,
  })
  metadata?: Record<string, unknown> | null;
}
