import {
  checkJsonObject,
  checkList,
  Field,
  JsonObjectField,
  OPTIONAL_OR_NULL,
  StringField,
  VIDEO_REQUEST_LIMITS,
} from '@gateway/contracts';
import type { SerialisableObject } from '@gateway/providers-core';
import { validTaskBody } from '../../tasks/task-body.util';
import type { VideoRequestDraft } from '../../videos/video-request.mapper';

/** Items of one `content[]`: the wire's limits together (9 images, 3 videos, 3 audios, a text). */
const MAX_CONTENT_ITEMS = 16;

/**
 * Body of `POST /v1/video/generations` (gateway interface, "Theta 2.0 video request"). The gateway
 * checks the shape here; the family rules (theta2VideoRules, in the eta provider) check the items,
 * their roles, the limits and the metadata values.
 */
export class ThetaVideoGenerationRequestDto {
  @StringField({
    description:
      '`eta-theta-2-0-260128`, `eta-theta-2-0-fast-260128`, or `theta-2.0-lite|pro|fast` where offered.',
    nonEmpty: true,
    maxLength: VIDEO_REQUEST_LIMITS.textLength,
  })
  model: string;

  @Field(
    {
      description:
        'Items `{type: "text", text}`, `{type: "image_url", image_url: {url}, role}`, `{type: "video_url", ' +
        'video_url: {url, duration}, role}`, `{type: "audio_url", audio_url: {url, duration}, role}`; URLs ' +
        'may be `asset://{AssetId}`; each video and audio declares its `duration` in seconds.',
    },
    {
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      minItems: 1,
      maxItems: MAX_CONTENT_ITEMS,
    },
    'contentItems',
    (value) => checkList(value, checkJsonObject, { minItems: 1, maxItems: MAX_CONTENT_ITEMS }),
  )
  content: SerialisableObject[];

  @JsonObjectField({
    description:
      '`duration` (4–15 or -1), `ratio`, `resolution`, and `seed`, `camera_fixed`, `watermark`, `generate_audio`, `return_last_frame`.',
    ...OPTIONAL_OR_NULL,
  })
  metadata?: SerialisableObject | null;
}

/**
 * The request as the family rules read it (style `official`): `content[]` in `extras.content`, the
 * other top-level fields beside it (named in a warning by the rules), `metadata` as sent.
 */
export function toThetaVideoDraft(body: unknown): VideoRequestDraft {
  validTaskBody(ThetaVideoGenerationRequestDto, body);
  const { model, content, metadata, ...others } = body as Record<string, unknown>;
  return {
    modelName: model as string,
    fields: {
      style: 'official',
      images: [],
      clips: [],
      subjects: [],
      ...(metadata ? { metadata: metadata as SerialisableObject } : {}),
      extras: { ...(others as SerialisableObject), content: content as SerialisableObject[] },
    },
  };
}
