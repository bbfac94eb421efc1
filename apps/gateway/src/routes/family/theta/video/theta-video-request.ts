import {
  checkJsonObject,
  checkList,
  checkString,
  Field,
  isJsonObject,
  JsonObjectField,
  OPTIONAL_OR_NULL,
  problemAt,
  StringField,
  STORED_FIELD_LIMITS,
  VIDEO_REQUEST_LIMITS,
  type StoredFieldsShape,
} from '@gateway/contracts';
import type { SerialisableObject } from '@gateway/providers-core';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../../platform/http/declared-body';
import { validTaskBody } from '../../../../tasks/task-body.util';
import { videoImageUrlOf } from '../../../modality/videos/video-image-input';
import type { VideoRequestDraft } from '../../../modality/videos/video-request.mapper';

const DATA_URI = /^data:/i;

/** Items of one `content[]`: the wire's limits together (9 images, 3 videos, 3 audios, a text). */
const MAX_CONTENT_ITEMS = 16;

/** The named fields; any other top-level field is kept beside `content` (and refused by the rules). */
const THETA_STORED: StoredFieldsShape = {
  named: new Set(['model', 'content', 'metadata']),
  passThrough: ['metadata'],
};

/** An item's shape is the rules'; its `text` is the prompt, under the prompt cap of every route. */
function checkContentItem(item: unknown): string | undefined {
  const problem = checkJsonObject(item);
  if (problem !== undefined || typeof (item as { text?: unknown }).text !== 'string') return problem;
  return problemAt(
    '.text',
    checkString((item as { text: string }).text, { maxLength: STORED_FIELD_LIMITS.promptLength }),
  );
}

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
        'may be `asset://{AssetId}`; each video and audio declares its `duration` in seconds. A text is at ' +
        `most ${STORED_FIELD_LIMITS.promptLength} characters.`,
    },
    {
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      minItems: 1,
      maxItems: MAX_CONTENT_ITEMS,
    },
    'contentItems',
    (value) => checkList(value, checkContentItem, { minItems: 1, maxItems: MAX_CONTENT_ITEMS }),
  )
  content: SerialisableObject[];

  @JsonObjectField({
    description:
      '`duration` (4–15 or -1), `ratio`, `resolution`, and `seed`, `camera_fixed`, `watermark`, `generate_audio`, ' +
      `\`return_last_frame\`; at most ${STORED_FIELD_LIMITS.passThroughBytes} bytes as JSON.`,
    ...OPTIONAL_OR_NULL,
  })
  metadata?: SerialisableObject | null;
}

/**
 * The request as the family rules read it (style `official`): `content[]` in `extras.content`, the
 * other top-level fields beside it (named in a warning by the rules), `metadata` as sent.
 */
/** The theta 2.0 create's body, declared on the route: the DTO, and the checks of what a task row stores. */
export const THETA_VIDEO_BODY: BodyDeclaration<ThetaVideoGenerationRequestDto> = {
  dto: ThetaVideoGenerationRequestDto,
  validate: (dto, body) => validTaskBody(dto, body, THETA_STORED),
};

/** `body` as the route declared it, or as sent (then validated by the same declaration). */
export function toThetaVideoDraft(
  declared: DeclaredBody<ThetaVideoGenerationRequestDto> | unknown,
): VideoRequestDraft {
  const request = declaredBodyOf(declared, THETA_VIDEO_BODY);
  request.fields();
  const { model, content, metadata, ...others } = request.raw as Record<string, unknown>;
  return {
    modelName: model as string,
    fields: {
      style: 'official',
      images: [],
      clips: [],
      subjects: [],
      ...(metadata ? { metadata: metadata as SerialisableObject } : {}),
      extras: {
        ...(others as SerialisableObject),
        content: withCheckedImages(content as SerialisableObject[]),
      },
    },
  };
}

/**
 * `content[]` with each `data:` image checked as on every other video route (videoImageUrlOf: Base64
 * of a PNG, JPEG or WebP, declared by its bytes), so that a task is never held for bytes no upstream
 * takes. URLs and `asset://` ids are left to the family rules.
 */
function withCheckedImages(content: SerialisableObject[]): SerialisableObject[] {
  return content.map((item, index) => {
    const image = item.image_url;
    if (item.type !== 'image_url' || !isJsonObject(image)) return item;
    const { url } = image;
    if (typeof url !== 'string' || !DATA_URI.test(url)) return item;
    return { ...item, image_url: { ...image, url: videoImageUrlOf(url, `content[${index}].image_url.url`) } };
  });
}
