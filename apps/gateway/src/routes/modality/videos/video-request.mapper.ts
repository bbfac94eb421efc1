import {
  checkHttpUrl,
  checkVideoSeconds,
  UnifiedVideoCreateRequestDto,
  VIDEO_REQUEST_LIMITS,
  VideoCreateRequestDto,
  VideoRemixRequestDto,
  type StoredFieldsShape,
  type VideoSubjectDto,
} from '@gateway/contracts';
import {
  isJsonObject,
  type ByteStrings,
  type SerialisableObject,
  type VideoClip,
  type VideoImage,
  type VideoRequest,
  type VideoSubject,
} from '@gateway/providers-core';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import { GatewayError } from '@gateway/errors';
import { validTaskBody } from '../../../tasks/task-body.util';
import { videoImageUrlOf } from './video-image-input';

/** A video request read from its style, before its model name is resolved against the catalog. */
export interface VideoRequestDraft {
  /** The model as the client named it: a base model or a combined billing name. */
  modelName: string;
  fields: VideoRequestFields;
  /** The one channel the task may go to: the one holding the assets the request cites (theta 2.0). */
  channelId?: string;
  /** Where the images that stand as tokens in `fields` are read (a route that holds them as bytes). */
  byteStrings?: ByteStrings;
}

/** What the client's body says of a video request: serialisable, hashed as it is. */
export type VideoRequestFields = Omit<VideoRequest, 'model' | 'dimensions' | 'byteStrings'>;

/** A remix body: what the new task changes; the rest comes from the video it remixes. */
export interface VideoRemixDraft {
  /** Absent: the source video's model. */
  modelName?: string;
  fields: VideoRequestFields;
}

/** Fields each style names; every other field is kept as an extra for the families whose wire has it. */
const OPENAI_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'prompt',
  'seconds',
  'duration',
  'size',
  'aspect_ratio',
  'image',
  'images',
  'input_reference',
  'metadata',
]);
const UNIFIED_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'prompt',
  'seconds',
  'duration',
  'size',
  'aspect_ratio',
  'images',
  'subjects',
  'metadata',
]);
/** Named by the unified DTO but kept as extras for the families that read them (delta's). */
const UNIFIED_EXTRA_FIELDS = ['orientation', 'watermark', 'private', 'style', 'storyboard'];
const REMIX_FIELDS: ReadonlySet<string> = new Set(['model', 'prompt', 'seconds', 'metadata']);

/** What each style keeps on the task row besides the fields its DTO bounds (STORED_FIELD_LIMITS). */
const OPENAI_STORED: StoredFieldsShape = { named: OPENAI_FIELDS, passThrough: ['metadata'] };
const UNIFIED_STORED: StoredFieldsShape = {
  named: new Set([...UNIFIED_FIELDS, ...UNIFIED_EXTRA_FIELDS]),
  passThrough: ['metadata', 'storyboard'],
};
const REMIX_STORED: StoredFieldsShape = { named: REMIX_FIELDS, passThrough: ['metadata'] };

/**
 * `POST /v1/videos`, JSON or a form read by videoFormOf (`uploads`: its input_reference files;
 * `frames`: its first_frame_image and last_frame_image files, with their roles). Input images by the
 * generic roles: `image` the first frame, `metadata.last_frame_url` the last, `images[]` references,
 * `input_reference` (files, a URL or `{image_url}`) by count like the unified style.
 */
/** `POST /v1/videos`'s body (JSON, or a form's fields), declared on the route. */
export const OPENAI_VIDEO_BODY: BodyDeclaration<VideoCreateRequestDto> = {
  dto: VideoCreateRequestDto,
  validate: (dto, body) => validTaskBody(dto, body, OPENAI_STORED),
};

/** `POST /v1/videos/{id}/remix`'s body, declared on the route. */
export const REMIX_VIDEO_BODY: BodyDeclaration<VideoRemixRequestDto> = {
  dto: VideoRemixRequestDto,
  validate: (dto, body) => validTaskBody(dto, body, REMIX_STORED),
};

export function toOpenAiVideoRequest(
  body: DeclaredBody<VideoCreateRequestDto> | unknown,
  uploads: readonly string[] = [],
  frames: readonly VideoImage[] = [],
): VideoRequestDraft {
  const declared = declaredBodyOf(body, OPENAI_VIDEO_BODY);
  const fields = declared.fields();
  const raw = declared.raw;
  const metadata = metadataOf(fields.metadata);
  const images: VideoImage[] = [];
  if (fields.image) images.push(image('first_frame', fields.image, 'image', 'image'));
  const lastFrame = lastFrameOf(metadata);
  if (lastFrame) images.push(lastFrame);
  images.push(...frames);
  (fields.images ?? []).forEach((url, index) =>
    images.push(image('reference', url, `images[${index}]`, 'images')),
  );
  images.push(...framesByCount([...uploads, ...inputReferenceOf(fields.input_reference)], 'input_reference'));
  return {
    modelName: fields.model,
    fields: {
      style: 'openai',
      prompt: fields.prompt,
      seconds: secondsOf(fields, metadata),
      resolution: resolutionOf(metadata, fields.size),
      size: fields.size ?? undefined,
      aspectRatio: fields.aspect_ratio ?? undefined,
      images,
      clips: clipsOf(metadata),
      subjects: [],
      metadata,
      extras: extrasOf(raw, OPENAI_FIELDS),
    },
  };
}

/** The unified create's body, declared on the route: the DTO, and the checks of what a task row stores. */
export const UNIFIED_VIDEO_BODY: BodyDeclaration<UnifiedVideoCreateRequestDto> = {
  dto: UnifiedVideoCreateRequestDto,
  validate: (dto, body) => validTaskBody(dto, body, UNIFIED_STORED),
};

/**
 * `POST /v1/video/create`: the number of `images` selects the mode (one: the first frame; two: the
 * first and last frames), `subjects` for reference-to-video, the delta extras kept as extras.
 */
export function toUnifiedVideoRequest(
  body: DeclaredBody<UnifiedVideoCreateRequestDto> | unknown,
): VideoRequestDraft {
  const declared = declaredBodyOf(body, UNIFIED_VIDEO_BODY);
  const fields = declared.fields();
  const raw = declared.raw;
  const metadata = metadataOf(fields.metadata);
  const lastFrame = lastFrameOf(metadata);
  return {
    modelName: fields.model,
    fields: {
      style: 'unified',
      prompt: fields.prompt,
      seconds: secondsOf(fields, metadata),
      resolution: resolutionOf(metadata, fields.size),
      size: fields.size ?? undefined,
      aspectRatio: fields.aspect_ratio ?? undefined,
      images: [...framesByCount(fields.images ?? [], 'images'), ...(lastFrame ? [lastFrame] : [])],
      clips: clipsOf(metadata),
      subjects: (fields.subjects ?? []).map(subjectOf),
      metadata,
      extras: extrasOf(raw, UNIFIED_FIELDS),
    },
  };
}

/** `POST /v1/videos/{video_id}/remix`: a prompt, and optionally the model, seconds and metadata. */
export function toRemixVideoRequest(body: DeclaredBody<VideoRemixRequestDto> | unknown): VideoRemixDraft {
  const declared = declaredBodyOf(body, REMIX_VIDEO_BODY);
  const fields = declared.fields();
  const metadata = metadataOf(fields.metadata);
  return {
    modelName: fields.model ?? undefined,
    fields: {
      style: 'openai',
      prompt: fields.prompt,
      seconds: secondsOf(fields, metadata),
      resolution: resolutionOf(metadata, undefined),
      images: [],
      clips: [],
      subjects: [],
      metadata,
      extras: {},
    },
  };
}

function image(role: VideoImage['role'], url: string, param: string, source: string): VideoImage {
  return { role, url: videoImageUrlOf(url, param), source };
}

/** One image is the first frame, two the first and last frames, more are references. */
function framesByCount(urls: readonly string[], source: string): VideoImage[] {
  const roleAt = (index: number): VideoImage['role'] => {
    if (urls.length > 2) return 'reference';
    return index === 0 ? 'first_frame' : 'last_frame';
  };
  return urls.map((url, index) => image(roleAt(index), url, `${source}[${index}]`, source));
}

/** `input_reference` as a JSON value: a URL or data: URI, or `{image_url}`. */
function inputReferenceOf(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  const reference = value as { image_url?: string; file_id?: string };
  if (reference.image_url !== undefined) return [reference.image_url];
  throw GatewayError.invalidRequest(
    'input_reference.file_id is not supported: the gateway keeps no files. Upload the image as input_reference, or give its image_url.',
    'input_reference.file_id',
  );
}

/** Duration precedence: seconds, duration, metadata.seconds, metadata.duration, metadata.video_duration. */
function secondsOf(
  fields: { seconds?: string | number | null; duration?: string | number | null },
  metadata: SerialisableObject | undefined,
): number | undefined {
  const rungs: Array<[string, unknown]> = [
    ['seconds', fields.seconds],
    ['duration', fields.duration],
    ['metadata.seconds', metadata?.['seconds']],
    ['metadata.duration', metadata?.['duration']],
    ['metadata.video_duration', metadata?.['video_duration']],
  ];
  const given = rungs.find(([, value]) => value !== undefined && value !== null);
  if (!given) return undefined;
  const [param, value] = given;
  const problem = checkVideoSeconds(value);
  if (problem) throw GatewayError.invalidRequest(`${param} ${problem}.`, param);
  return Number(value);
}

/** Resolution precedence: metadata.output_config.resolution, else size (else the family's default). */
function resolutionOf(
  metadata: SerialisableObject | undefined,
  size: string | null | undefined,
): string | undefined {
  const outputConfig = metadata?.['output_config'];
  const resolution = isJsonObject(outputConfig) ? outputConfig['resolution'] : undefined;
  if (resolution === undefined || resolution === null) return size ?? undefined;
  if (
    typeof resolution !== 'string' ||
    resolution === '' ||
    resolution.length > VIDEO_REQUEST_LIMITS.textLength
  ) {
    throw GatewayError.invalidRequest(
      'metadata.output_config.resolution must be a resolution such as 720P.',
      'metadata.output_config.resolution',
    );
  }
  return resolution;
}

function metadataOf(metadata: Record<string, unknown> | null | undefined): SerialisableObject | undefined {
  return metadata ? (metadata as SerialisableObject) : undefined;
}

function lastFrameOf(metadata: SerialisableObject | undefined): VideoImage | undefined {
  const url = metadata?.['last_frame_url'];
  if (url === undefined || url === null) return undefined;
  if (typeof url !== 'string') {
    throw GatewayError.invalidRequest('metadata.last_frame_url must be a string.', 'metadata.last_frame_url');
  }
  return image('last_frame', url, 'metadata.last_frame_url', 'metadata.last_frame_url');
}

/** `metadata.video_url`: a reference video, by http(s) URL only. */
function clipsOf(metadata: SerialisableObject | undefined): VideoClip[] {
  const url = metadata?.['video_url'];
  if (url === undefined || url === null) return [];
  if (checkHttpUrl(url) !== undefined || (url as string).length > VIDEO_REQUEST_LIMITS.urlLength) {
    throw GatewayError.invalidRequest('metadata.video_url must be an http(s) URL.', 'metadata.video_url');
  }
  return [{ type: 'video', url: url as string, role: 'reference', source: 'metadata.video_url' }];
}

function subjectOf(subject: VideoSubjectDto, index: number): VideoSubject {
  return {
    id: subject.id,
    images: subject.images.map((url, at) => videoImageUrlOf(url, `subjects[${index}].images[${at}]`)),
    ...(subject.voice_id ? { voiceId: subject.voice_id } : {}),
  };
}

/** The fields a style does not name, as sent: the families read theirs (delta `watermark`, alpha's …). */
function extrasOf(body: unknown, named: ReadonlySet<string>): SerialisableObject {
  const entries = Object.entries(body as Record<string, unknown>).filter(([name]) => !named.has(name));
  return Object.fromEntries(entries) as SerialisableObject;
}
