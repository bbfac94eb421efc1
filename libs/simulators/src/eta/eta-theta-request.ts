import { isRecord } from '../sample-arguments.util';
import { WireError } from '../scripted-error';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';
import { etaInvalidParameter, etaMissingParameter, etaModelNotFound } from './eta-errors';
import {
  ADAPTIVE_RATIOS,
  closestThetaRatio,
  THETA_DEFAULT_RATIO,
  THETA_DEFAULT_RESOLUTION,
  THETA_FRAMES_PER_SECOND,
  THETA_RATIOS,
  THETA_RESOLUTIONS,
  thetaModelOf,
  ThetaModelProfile,
} from './eta-theta-models';

/** A validated create body (upstreams.md §6.2), with what the query answers echo. */
export interface ThetaJob {
  model: string;
  profile: ThetaModelProfile;
  resolution: string;
  /** The ratio produced: `adaptive` resolved to the first frame's (16:9 for a URL, which is not fetched). */
  ratio: string;
  duration: number;
  seed: number;
  serviceTier: string;
  executionExpiresAfter: number;
  returnLastFrame: boolean;
  generateAudio?: boolean;
  draft?: boolean;
}

export type ThetaJobResult = { job: ThetaJob } | { error: WireError };

type ContentImage = { role: string; width?: number; height?: number };

const ITEM_TYPES = ['text', 'image_url', 'video_url', 'audio_url'];
const IMAGE_ROLES = ['first_frame', 'last_frame', 'reference_image'];
const MAX_REFERENCES = 4;
const MIN_DURATION = 3;
const MAX_DURATION = 12;
const DEFAULT_DURATION = 5;
const MAX_SEED = 2 ** 32 - 1;
const SERVICE_TIERS = ['default', 'flex'];
const DEFAULT_EXPIRES_AFTER = 172_800;
const HTTPS_URL = /^https:\/\/\S+$/;
const BOOLEAN_FIELDS = ['camera_fixed', 'watermark', 'return_last_frame'];

export function toThetaJob(body: Record<string, unknown>, requestId: string): ThetaJobResult {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') return { error: etaMissingParameter('model', requestId) };
  const profile = thetaModelOf(model);
  if (!profile) return { error: etaModelNotFound(model, requestId) };
  const invalid = (param: string, reason: string, code?: string): ThetaJobResult => ({
    error: etaInvalidParameter(param, reason, requestId, code),
  });
  const content = body['content'];
  if (!Array.isArray(content) || content.length === 0)
    return { error: etaMissingParameter('content', requestId) };
  const read = readContent(content, profile);
  if (typeof read === 'string') return invalid('content', read);
  const { text, images } = read;
  if (images.length === 0 && profile.images === 'required')
    return invalid('content', `${model} needs an image.`);
  if (images.length === 0 && text === undefined)
    return { error: etaMissingParameter('content.text', requestId) };
  const numbers = numbersOf(body, profile, images);
  if ('param' in numbers) return invalid(numbers.param, numbers.reason);
  const flags = flagsOf(body, profile);
  if (typeof flags === 'string') return invalid(flags, `${flags} must be a boolean supported by ${model}.`);
  return { job: { model, profile, ...numbers, ...flags } };
}

/**
 * The text and images of `content[]`: items in the order text, images (videos and audios need 2.0),
 * each image an https URL or a Base64 `data:image/…` URL, with valid roles: one image without role is
 * the first frame; a last frame needs a first; frames and references never mix.
 */
function readContent(
  content: unknown[],
  profile: ThetaModelProfile,
): { text?: string; images: ContentImage[] } | string {
  let text: string | undefined;
  const images: ContentImage[] = [];
  for (const item of content) {
    if (!isRecord(item) || typeof item['type'] !== 'string' || !ITEM_TYPES.includes(item['type'])) {
      return `each item needs a type among ${ITEM_TYPES.join(', ')}.`;
    }
    const type = item['type'];
    if (type === 'video_url' || type === 'audio_url') return `${type} items need a theta 2.0 model.`;
    if (type === 'text') {
      if (text !== undefined || images.length > 0) return 'one text item, before the images.';
      if (typeof item['text'] !== 'string' || item['text'] === '') return 'text must be a non-empty string.';
      text = item['text'];
      continue;
    }
    const image = readImage(item);
    if (typeof image === 'string') return image;
    images.push(image);
  }
  const roleProblem = rolesProblem(images, profile);
  return roleProblem ?? { text, images };
}

function readImage(item: Record<string, unknown>): ContentImage | string {
  const imageUrl = item['image_url'];
  const url = isRecord(imageUrl) ? imageUrl['url'] : undefined;
  if (typeof url !== 'string') return 'image_url.url is required.';
  const role = item['role'] ?? '';
  if (typeof role !== 'string' || (role !== '' && !IMAGE_ROLES.includes(role))) {
    return `role must be one of ${IMAGE_ROLES.join(', ')}.`;
  }
  if (HTTPS_URL.test(url)) return { role };
  if (url.startsWith('asset://')) return 'asset:// references need a theta 2.0 model.';
  const bytes = url.startsWith('data:image/') ? decodeBase64Image(url) : undefined;
  const inspected = bytes ? inspectImage(bytes) : undefined;
  if (!inspected) return 'image_url.url must be an https URL or a Base64 data:image/ URL of an image.';
  return { role, width: inspected.width, height: inspected.height };
}

function rolesProblem(images: ContentImage[], profile: ThetaModelProfile): string | undefined {
  if (images.length > 0 && profile.images === 'none') return 'this model takes no images.';
  if (images.length === 1 && images[0].role === '') images[0].role = 'first_frame';
  if (images.some((image) => image.role === '')) return 'each of several images needs a role.';
  const count = (role: string) => images.filter((image) => image.role === role).length;
  const references = count('reference_image');
  if (references > 0) {
    if (!profile.references) return 'this model takes no reference images.';
    if (references < images.length) return 'first/last-frame mode cannot be combined with reference images.';
    return references > MAX_REFERENCES ? `at most ${MAX_REFERENCES} reference images.` : undefined;
  }
  if (count('first_frame') > 1 || count('last_frame') > 1)
    return 'one first frame and one last frame at most.';
  if (count('last_frame') === 1 && count('first_frame') === 0) return 'a last frame needs a first frame.';
  return undefined;
}

type Numbers = Pick<
  ThetaJob,
  'resolution' | 'ratio' | 'duration' | 'seed' | 'serviceTier' | 'executionExpiresAfter'
>;
type FieldRefusal = { param: string; reason: string };

const refusal = (param: string, reason: string): FieldRefusal => ({ param, reason });

/** The numeric and word fields, or why the first that is invalid is refused. */
function numbersOf(
  body: Record<string, unknown>,
  profile: ThetaModelProfile,
  images: ContentImage[],
): Numbers | FieldRefusal {
  const resolution = body['resolution'] ?? THETA_DEFAULT_RESOLUTION;
  if (typeof resolution !== 'string' || !THETA_RESOLUTIONS.includes(resolution)) {
    return refusal('resolution', `must be one of ${THETA_RESOLUTIONS.join(', ')}.`);
  }
  const ratio = ratioOf(body['ratio'], profile, images);
  if (ratio === undefined)
    return refusal('ratio', `must be one of ${[...THETA_RATIOS, 'adaptive'].join(', ')}.`);
  const duration = durationOf(body['duration'], body['frames']);
  if (typeof duration !== 'number') return duration;
  const seed = body['seed'] ?? Math.floor(Math.random() * MAX_SEED);
  if (!isIntegerIn(seed, -1, MAX_SEED)) return refusal('seed', `must be an integer from -1 to ${MAX_SEED}.`);
  const serviceTier = body['service_tier'] ?? 'default';
  if (typeof serviceTier !== 'string' || !SERVICE_TIERS.includes(serviceTier)) {
    return refusal('service_tier', `must be one of ${SERVICE_TIERS.join(', ')}.`);
  }
  const expiresAfter = body['execution_expires_after'] ?? DEFAULT_EXPIRES_AFTER;
  if (!isIntegerIn(expiresAfter, 1, Number.MAX_SAFE_INTEGER))
    return refusal('execution_expires_after', 'must be a positive integer.');
  return {
    resolution,
    ratio,
    duration,
    seed: seed === -1 ? Math.floor(Math.random() * MAX_SEED) : seed,
    serviceTier,
    executionExpiresAfter: expiresAfter,
  };
}

/** The ratio produced; `keep_ratio` only on 1.0 with a first frame†; undefined when refused. */
function ratioOf(value: unknown, profile: ThetaModelProfile, images: ContentImage[]): string | undefined {
  const first = images.find((image) => image.role === 'first_frame' || image.role === 'reference_image');
  const followed =
    first?.width && first.height ? closestThetaRatio(first.width, first.height) : THETA_DEFAULT_RATIO;
  if (value === undefined) return first ? followed : THETA_DEFAULT_RATIO;
  if (typeof value !== 'string') return undefined;
  if (THETA_RATIOS.includes(value)) return value;
  if (!ADAPTIVE_RATIOS.includes(value)) return undefined;
  if (value === 'keep_ratio' && !(profile.version === '1.0' && first)) return undefined;
  return followed;
}

/** `duration` (3–12 s on 1.x) or `frames` (24 per second plus one), never both. */
function durationOf(duration: unknown, frames: unknown): number | FieldRefusal {
  if (duration !== undefined && frames !== undefined)
    return refusal('frames', 'duration and frames are exclusive.');
  if (frames !== undefined) {
    const seconds = typeof frames === 'number' ? (frames - 1) / THETA_FRAMES_PER_SECOND : Number.NaN;
    return isIntegerIn(seconds, MIN_DURATION, MAX_DURATION)
      ? seconds
      : refusal('frames', `must be 24 × seconds + 1 for ${MIN_DURATION} to ${MAX_DURATION} seconds.`);
  }
  const value = duration ?? DEFAULT_DURATION;
  return isIntegerIn(value, MIN_DURATION, MAX_DURATION)
    ? value
    : refusal('duration', `must be an integer from ${MIN_DURATION} to ${MAX_DURATION}.`);
}

/** The boolean fields, or the name of the first that is invalid or not taken by the model. */
function flagsOf(
  body: Record<string, unknown>,
  profile: ThetaModelProfile,
): Pick<ThetaJob, 'returnLastFrame' | 'generateAudio' | 'draft'> | string {
  const invalid = BOOLEAN_FIELDS.find(
    (field) => body[field] !== undefined && typeof body[field] !== 'boolean',
  );
  if (invalid) return invalid;
  const flags: Pick<ThetaJob, 'returnLastFrame' | 'generateAudio' | 'draft'> = {
    returnLastFrame: body['return_last_frame'] === true,
  };
  for (const [field, key] of [
    ['generate_audio', 'generateAudio'],
    ['draft', 'draft'],
  ] as const) {
    const value = body[field];
    if (value !== undefined && (typeof value !== 'boolean' || !profile.audioAndDraft)) return field;
    if (profile.audioAndDraft) flags[key] = typeof value === 'boolean' ? value : field === 'generate_audio';
  }
  return flags;
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
