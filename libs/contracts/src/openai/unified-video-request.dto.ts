import { ApiProperty } from '@nestjs/swagger';
import { OPTIONAL_OR_NULL } from '../validation/field.decorator';
import { JsonObjectField, NestedListField } from '../validation/nested-field.decorator';
import { BooleanField, StringField, StringListField } from '../validation/scalar-field.decorator';
import { PASS_THROUGH_CAP } from '../validation/stored-field-limits.constants';
import { VideoModelPromptDto } from './video-create-request.dto';
import { VideoSecondsField } from './video-request-fields.check';
import { VIDEO_REQUEST_LIMITS } from './video-values.constants';

const TEXT = { ...OPTIONAL_OR_NULL, maxLength: VIDEO_REQUEST_LIMITS.textLength };

/** A reference-to-video subject: the prompt cites it as `@<id>`. */
export class VideoSubjectDto {
  @StringField({ description: 'The id the prompt cites.', nonEmpty: true, maxLength: 64 })
  id: string;

  @StringListField({
    description: 'Its images: http(s) URLs or `data:image/…;base64,` URIs.',
    minItems: 1,
    maxItems: VIDEO_REQUEST_LIMITS.images,
    items: { nonEmpty: true },
  })
  images: string[];

  @StringField({ description: 'A voice for the subject, where the family has voices.', ...TEXT })
  voice_id?: string | null;
}

/**
 * Body of `POST /v1/video/create` (gateway interface, "Unified video request"). The number of
 * `images` selects the mode: none text-to-video, one first frame, two first and last frames.
 */
export class UnifiedVideoCreateRequestDto extends VideoModelPromptDto {
  @StringListField({
    description: 'Input images: http(s) URLs or `data:image/…;base64,` URIs; their number selects the mode.',
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.images,
    items: { nonEmpty: true },
  })
  images?: string[] | null;

  @VideoSecondsField('Duration in seconds; see the precedence on `POST /v1/videos`.')
  duration?: string | number | null;

  @VideoSecondsField('Duration in seconds; wins over `duration`.')
  seconds?: string | number | null;

  @StringField({ description: 'Size or resolution (`1280x720`, `720P` …).', ...TEXT })
  size?: string | null;

  @StringField({ description: 'Aspect ratio (`16:9` …).', ...TEXT })
  aspect_ratio?: string | null;

  @StringField({ description: 'Orientation (`landscape`, `portrait`), for families that take one.', ...TEXT })
  orientation?: string | null;

  @NestedListField(() => VideoSubjectDto, {
    description: 'Subjects for reference-to-video.',
    ...OPTIONAL_OR_NULL,
    maxItems: VIDEO_REQUEST_LIMITS.subjects,
  })
  subjects?: VideoSubjectDto[] | null;

  @BooleanField({ description: 'delta: watermark the result.', ...OPTIONAL_OR_NULL })
  watermark?: boolean | null;

  @BooleanField({ description: 'delta: keep the result private.', ...OPTIONAL_OR_NULL })
  private?: boolean | null;

  @StringField({ description: 'delta: a style preset.', ...TEXT })
  style?: string | null;

  @ApiProperty({
    description: `delta: a storyboard, passed on as sent. ${PASS_THROUGH_CAP}`,
    required: false,
  })
  storyboard?: unknown;

  @JsonObjectField({
    description: `Extended parameters, as on \`POST /v1/videos\`. ${PASS_THROUGH_CAP}`,
    ...OPTIONAL_OR_NULL,
  })
  metadata?: Record<string, unknown> | null;
}
