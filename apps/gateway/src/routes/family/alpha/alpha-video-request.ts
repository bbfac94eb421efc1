import {
  describeProblems,
  findStoredFieldProblem,
  findUnstorableText,
  UNSTORABLE_TEXT_PROBLEM,
  validateBody,
  WHOLE_BODY_FIELD,
  type FieldProblem,
  type StoredFieldsShape,
} from '@gateway/contracts';
import type { SerialisableObject, VideoImage, VideoImageRole, VideoSubject } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import type { VideoRequestDraft } from '../../modality/videos/video-request.mapper';
import { alphaFieldError } from './alpha-refusal.error';
import { AlphaVideoRequestDto } from './alpha-video-request.dto';
import type { UrlImage } from './alpha-url-images';

/** The submission endpoints of the alpha official API (upstreams.md §3.2), one route each. */
export const ALPHA_ENDPOINTS = ['text2video', 'img2video', 'start-end2video', 'reference2video'] as const;
export type AlphaEndpoint = (typeof ALPHA_ENDPOINTS)[number];

/** What `images` are on each endpoint (§3.2): none, the start frame, the first and last frames, references. */
const IMAGE_ROLES: Readonly<Record<AlphaEndpoint, readonly VideoImageRole[] | 'references'>> = {
  text2video: [],
  img2video: ['first_frame'],
  'start-end2video': ['first_frame', 'last_frame'],
  reference2video: 'references',
};

/** The fields the gateway reads; every other field is an extra the alpha rules check and pass on. */
const READ_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'prompt',
  'images',
  'subjects',
  'duration',
  'resolution',
  'aspect_ratio',
]);
/**
 * The row keeps the planned call, whose extras are the §3.3 fields: `payload` and `meta_data` are
 * stored and sent as written, so they have the pass-through cap (below the wire's 1 048 576
 * characters of `payload`). Other fields are dropped by the rules, bounded all the same.
 */
const ALPHA_STORED: StoredFieldsShape = {
  named: new Set([
    ...READ_FIELDS,
    'audio',
    'audio_type',
    'voice_id',
    'is_rec',
    'bgm',
    'seed',
    'off_peak',
    'watermark',
    'wm_position',
    'wm_url',
    'payload',
    'meta_data',
    'style',
    'movement_amplitude',
    'callback_url',
  ]),
  passThrough: ['payload', 'meta_data'],
};
const HTTP_URL = /^https?:\/\//i;
const REQUIRED_PROBLEM = / is required$/;

/**
 * An alpha official route's body as a video request in the `official` style: the endpoint gives the
 * images their roles, so that the rules choose the endpoint's own mode; `duration` is the seconds;
 * the §3.3 pass-through fields (`audio`, `voice_id`, `is_rec`, `bgm`, `seed`, `off_peak`, watermark
 * fields, `payload`, `meta_data` …) are the extras the alpha rules read. The endpoint's inputs are
 * checked here, each refusal with its §3.6 reason; values and limits are the rules'.
 */
/** The alpha routes' body, declared on each route: the DTO, refused in the family's own field errors. */
export const ALPHA_VIDEO_BODY: BodyDeclaration<AlphaVideoRequestDto> = {
  dto: AlphaVideoRequestDto,
  validate: (_dto, body) => validAlphaBody(body),
};

/** `body` as the route declared it, or as sent (then validated by the same declaration). */
export function toAlphaVideoDraft(
  endpoint: AlphaEndpoint,
  declared: DeclaredBody<AlphaVideoRequestDto> | unknown,
): VideoRequestDraft {
  const request = declaredBodyOf(declared, ALPHA_VIDEO_BODY);
  const fields = request.fields();
  const images = fields.images ?? [];
  const subjects = fields.subjects ?? [];
  const roles = IMAGE_ROLES[endpoint];
  if (roles !== 'references' && subjects.length > 0) {
    throw alphaFieldError('FieldUnwanted', 'subjects', `subjects is not accepted on ${endpoint}`);
  }
  if (roles === 'references' && images.length === 0 && subjects.length === 0) {
    throw alphaFieldError(
      'FieldLacking',
      'subjects',
      `subjects (or reference images) is required on ${endpoint}`,
    );
  }
  if (roles !== 'references' && images.length !== roles.length)
    throw imageCountError(endpoint, roles, images);
  return {
    modelName: fields.model,
    fields: {
      style: 'official',
      prompt: fields.prompt ?? undefined,
      seconds: fields.duration ?? undefined,
      resolution: fields.resolution ?? undefined,
      aspectRatio: fields.aspect_ratio ?? undefined,
      images: images.map((url, index) => ({
        role: roles === 'references' ? 'reference' : roles[index],
        url,
        source: 'images',
      })),
      clips: [],
      subjects: subjects.map(({ id, images: subjectImages, voice_id }) => ({
        id,
        images: subjectImages,
        ...(typeof voice_id === 'string' ? { voiceId: voice_id } : {}),
      })),
      extras: extrasOf(request.raw as Record<string, unknown>),
    },
  };
}

/** The images of a request given by http(s) URL, by the field that names each. */
export function urlImagesOf(draft: VideoRequestDraft): UrlImage[] {
  const { images, subjects } = draft.fields;
  return [
    ...images.map((image: VideoImage, index) => ({ url: image.url, param: `images[${index}]` })),
    ...subjects.flatMap((subject: VideoSubject, index) =>
      subject.images.map((url, at) => ({ url, param: `subjects[${index}].images[${at}]` })),
    ),
  ].filter((image) => HTTP_URL.test(image.url));
}

function validAlphaBody(body: unknown): AlphaVideoRequestDto {
  const result = validateBody(AlphaVideoRequestDto, body);
  if (!result.ok) throw problemsError(result.problems);
  const unstorable = findUnstorableText(body);
  if (unstorable !== undefined) {
    throw alphaFieldError('FieldInvalid', unstorable, `${unstorable} ${UNSTORABLE_TEXT_PROBLEM}.`);
  }
  const tooLarge = findStoredFieldProblem(body as Record<string, unknown>, ALPHA_STORED);
  if (tooLarge) throw alphaFieldError('FieldInvalid', tooLarge.field, `${tooLarge.message}.`);
  return result.value;
}

function problemsError(problems: FieldProblem[]): GatewayError {
  const [first] = problems;
  const message = describeProblems(problems);
  if (first.field === WHOLE_BODY_FIELD) return GatewayError.invalidRequest(message);
  return alphaFieldError(
    REQUIRED_PROBLEM.test(first.message) ? 'FieldLacking' : 'FieldInvalid',
    first.field,
    message,
  );
}

function imageCountError(
  endpoint: AlphaEndpoint,
  roles: readonly VideoImageRole[],
  images: readonly string[],
): GatewayError {
  if (roles.length === 0)
    return alphaFieldError('FieldUnwanted', 'images', `images is not accepted on ${endpoint}`);
  const wanted = roles.length === 1 ? '1 image (the start frame)' : '2 images (the first and last frames)';
  if (images.length === 0)
    return alphaFieldError('FieldLacking', 'images', `images is required on ${endpoint}: ${wanted}`);
  return alphaFieldError(
    'FieldItemCountOutOfRange',
    'images',
    `images must hold exactly ${wanted} on ${endpoint}, not ${images.length}`,
  );
}

function extrasOf(body: Record<string, unknown>): SerialisableObject {
  const entries = Object.entries(body).filter(([name]) => !READ_FIELDS.has(name));
  return Object.fromEntries(entries) as SerialisableObject;
}
