import { isRecord } from '../sample-arguments.util';
import { WireError } from '../scripted-error';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';
import { alphaError } from './alpha-errors';
import { AlphaSimModel, alphaSimModel } from './alpha-models';

/** The four submission endpoints of upstreams.md §3.2. */
export const ALPHA_ENDPOINTS = ['text2video', 'img2video', 'start-end2video', 'reference2video'] as const;
export type AlphaEndpoint = (typeof ALPHA_ENDPOINTS)[number];

export interface AlphaSubject {
  id: string;
  images: string[];
  voice_id?: string;
}

/** A submission that passed the §3.3 checks, with the defaults the upstream fills in. */
export interface AlphaSubmission {
  model: string;
  prompt: string;
  images: string[];
  subjects: AlphaSubject[];
  duration: number;
  resolution: string;
  /** The ratio of the output (16:9 unless asked on text2video or reference2video). */
  aspectRatio: string;
  seed: number;
  movementAmplitude: string;
  bgm: boolean;
  payload: string;
  offPeak: boolean;
}

export type AlphaSubmissionParse = { submission: AlphaSubmission } | { refusal: WireError };

const MAX_PROMPT_CHARACTERS = 5000;
const MAX_PAYLOAD_CHARACTERS = 1_048_576;
const MAX_REFERENCE_IMAGES = 7;
const MAX_IMAGES_PER_SUBJECT = 3;
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const MIN_IMAGE_SIDE = 128;
const MAX_SIDE_RATIO = 4;
const IMAGE_COUNT: Readonly<Record<Exclude<AlphaEndpoint, 'reference2video'>, number>> = {
  text2video: 0,
  img2video: 1,
  'start-end2video': 2,
};
const DATA_URL_PREFIX = /^data:image\/(png|jpeg|jpg|webp);base64,/i;
const HTTP_URL = /^https?:\/\/\S+$/i;
const FORMAT_OF_SUBTYPE: Readonly<Record<string, string>> = {
  png: 'png',
  jpeg: 'jpg',
  jpg: 'jpg',
  webp: 'webp',
};
const STYLES = ['general', 'anime'];
const MOVEMENT_AMPLITUDES = ['auto', 'small', 'medium', 'large'];
const AUDIO_TYPES = ['all', 'speech_only', 'sound_effect_only'];
const MAX_SEED = 2_147_483_647;

/**
 * A failed check, thrown from deep inside the parse and caught once in toAlphaSubmission: the §3.3
 * union has some forty checks, nested by endpoint and subject, and each stays one line this way.
 */
class Refusal {
  constructor(readonly error: WireError) {}
}

function refuse(reason: string, message: string): never {
  throw new Refusal(alphaError(reason, message));
}

/**
 * Checks a submission as the upstream does (§3.3, §3.7), each failure the §3.6 reason it meets:
 * missing fields `FieldLacking`, fields the endpoint does not take `FieldUnwanted`, wrong counts
 * `FieldItemCountOutOfRange`, images of another format `ImageFormatInvalid`, other bad values
 * `FieldInvalid`, a model the endpoint does not serve `ModelUnavailable`. Image URLs are not fetched.
 */
export function toAlphaSubmission(
  endpoint: AlphaEndpoint,
  body: Record<string, unknown>,
): AlphaSubmissionParse {
  try {
    return { submission: submissionOf(endpoint, body) };
  } catch (error) {
    if (error instanceof Refusal) return { refusal: error.error };
    throw error;
  }
}

function submissionOf(endpoint: AlphaEndpoint, body: Record<string, unknown>): AlphaSubmission {
  const reference = endpoint === 'reference2video';
  if (body.model === undefined) refuse('FieldLacking', 'model is required');
  const name = stringField(body, 'model');
  const model = alphaSimModel(name, reference);
  if (!model) refuse('ModelUnavailable', `model ${name} is not available on ${endpoint}`);
  const prompt = body.prompt === undefined ? '' : stringField(body, 'prompt');
  if (prompt.length > MAX_PROMPT_CHARACTERS)
    refuse('FieldInvalid', `prompt must be at most ${MAX_PROMPT_CHARACTERS} characters`);
  if (endpoint === 'text2video' && prompt.trim() === '') refuse('FieldLacking', 'prompt is required');
  const { images, subjects } = reference ? referenceInputsOf(body) : framesOf(endpoint, body);
  checkOptionalFields(endpoint, body, model);
  return {
    model: name,
    prompt,
    images,
    subjects,
    duration: durationOf(body, model),
    resolution: optionalOneOf(body, 'resolution', model.resolutions) ?? model.defaultResolution,
    aspectRatio: aspectRatioOf(endpoint, body, model),
    seed: seedOf(body),
    movementAmplitude: optionalOneOf(body, 'movement_amplitude', MOVEMENT_AMPLITUDES) ?? 'auto',
    bgm: optionalBoolean(body, 'bgm') ?? false,
    payload: payloadOf(body),
    offPeak: optionalBoolean(body, 'off_peak') ?? false,
  };
}

function framesOf(endpoint: Exclude<AlphaEndpoint, 'reference2video'>, body: Record<string, unknown>) {
  if (body.subjects !== undefined) refuse('FieldUnwanted', `subjects is not accepted on ${endpoint}`);
  const count = IMAGE_COUNT[endpoint];
  if (count === 0) {
    if (body.images !== undefined) refuse('FieldUnwanted', 'images is not accepted on text2video');
    return { images: [], subjects: [] };
  }
  if (body.images === undefined) refuse('FieldLacking', 'images is required');
  const images = imageListOf(body.images, 'images');
  if (images.length !== count)
    refuse('FieldItemCountOutOfRange', `images must hold exactly ${count} on ${endpoint}`);
  return { images, subjects: [] };
}

function referenceInputsOf(body: Record<string, unknown>): { images: string[]; subjects: AlphaSubject[] } {
  if (body.images !== undefined && body.subjects !== undefined) {
    refuse('BadRequest', 'send images or subjects, not both');
  }
  if (body.images !== undefined) {
    const images = imageListOf(body.images, 'images');
    if (images.length < 1 || images.length > MAX_REFERENCE_IMAGES) {
      refuse('FieldItemCountOutOfRange', `images must hold 1 to ${MAX_REFERENCE_IMAGES}`);
    }
    return { images, subjects: [] };
  }
  if (body.subjects === undefined) refuse('FieldLacking', 'images or subjects is required');
  if (!Array.isArray(body.subjects) || body.subjects.length === 0) {
    refuse('FieldItemCountOutOfRange', 'subjects must be a non-empty list');
  }
  const subjects = (body.subjects as unknown[]).map(subjectOf);
  const total = subjects.reduce((sum, subject) => sum + subject.images.length, 0);
  if (total > MAX_REFERENCE_IMAGES) {
    refuse(
      'FieldItemCountOutOfRange',
      `at most ${MAX_REFERENCE_IMAGES} images in all subjects, not ${total}`,
    );
  }
  return { images: [], subjects };
}

function subjectOf(value: unknown, index: number): AlphaSubject {
  const name = `subjects[${index}]`;
  if (!isRecord(value)) refuse('FieldInvalid', `${name} must be an object`);
  const id = stringField(value, 'id', name);
  if (id.trim() === '') refuse('FieldLacking', `${name}.id is required`);
  if (value.images === undefined) refuse('FieldLacking', `${name}.images is required`);
  const images = imageListOf(value.images, `${name}.images`);
  if (images.length < 1 || images.length > MAX_IMAGES_PER_SUBJECT) {
    refuse('FieldItemCountOutOfRange', `${name}.images must hold 1 to ${MAX_IMAGES_PER_SUBJECT}`);
  }
  const subject: AlphaSubject = { id, images };
  if (value.voice_id !== undefined) subject.voice_id = stringField(value, 'voice_id', name);
  return subject;
}

function imageListOf(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) refuse('FieldInvalid', `${name} must be a list`);
  return (value as unknown[]).map((image, index) => checkedImage(image, `${name}[${index}]`));
}

/** An http(s) URL (not fetched), or Base64 with its prefix: png/jpeg/jpg/webp, ≤ 50 MB, ≥ 128×128, 1:4–4:1. */
function checkedImage(image: unknown, name: string): string {
  if (typeof image !== 'string') refuse('FieldInvalid', `${name} must be a string`);
  if (HTTP_URL.test(image)) return image;
  const prefix = DATA_URL_PREFIX.exec(image);
  if (!prefix) {
    refuse('ImageFormatInvalid', `${name} must be a URL or data:image/<png|jpeg|jpg|webp>;base64,<data>`);
  }
  const bytes = decodeBase64Image(image);
  if (!bytes) refuse('ImageFormatInvalid', `${name} is not valid Base64`);
  if (bytes.length > MAX_IMAGE_BYTES) refuse('FieldInvalid', `${name} is larger than 50 MB`);
  const inspected = inspectImage(bytes);
  if (!inspected || inspected.type !== FORMAT_OF_SUBTYPE[prefix[1].toLowerCase()]) {
    refuse('ImageFormatInvalid', `${name} is not a ${prefix[1]} image`);
  }
  const { width, height } = inspected;
  if (Math.min(width, height) < MIN_IMAGE_SIDE) refuse('FieldInvalid', `${name} is smaller than 128x128`);
  if (Math.max(width, height) > Math.min(width, height) * MAX_SIDE_RATIO) {
    refuse('FieldInvalid', `${name} has an aspect ratio outside 1:4 to 4:1`);
  }
  return image;
}

function durationOf(body: Record<string, unknown>, model: AlphaSimModel): number {
  const { min, max } = model.durations;
  if (body.duration === undefined) return model.durations.default;
  const duration = body.duration;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < min || duration > max) {
    refuse('FieldInvalid', `duration must be ${min === max ? min : `${min} to ${max}`} for this model`);
  }
  return duration;
}

function aspectRatioOf(endpoint: AlphaEndpoint, body: Record<string, unknown>, model: AlphaSimModel): string {
  if (body.aspect_ratio === undefined) return '16:9';
  if (endpoint === 'img2video' || endpoint === 'start-end2video') {
    refuse('FieldUnwanted', `aspect_ratio is not accepted on ${endpoint}`);
  }
  return optionalOneOf(body, 'aspect_ratio', model.ratios) as string;
}

function seedOf(body: Record<string, unknown>): number {
  const seed = body.seed;
  if (seed === undefined || seed === 0) return Math.floor(Math.random() * MAX_SEED) + 1;
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
    refuse('FieldInvalid', `seed must be an integer from 0 to ${MAX_SEED}`);
  }
  return seed;
}

function payloadOf(body: Record<string, unknown>): string {
  if (body.payload === undefined) return '';
  const payload = stringField(body, 'payload');
  if (payload.length > MAX_PAYLOAD_CHARACTERS)
    refuse('FieldInvalid', `payload must be at most ${MAX_PAYLOAD_CHARACTERS} characters`);
  return payload;
}

/** Fields the simulator checks but does not echo: their types and values, where the model and endpoint take them. */
function checkOptionalFields(
  endpoint: AlphaEndpoint,
  body: Record<string, unknown>,
  model: AlphaSimModel,
): void {
  if (body.style !== undefined) {
    if (endpoint !== 'text2video') refuse('FieldUnwanted', `style is not accepted on ${endpoint}`);
    optionalOneOf(body, 'style', STYLES);
  }
  const audio = optionalBoolean(body, 'audio');
  if (audio === true && !model.audio) refuse('FieldInvalid', 'audio is only available on q3 models');
  optionalOneOf(body, 'audio_type', AUDIO_TYPES);
  for (const field of ['is_rec', 'watermark']) optionalBoolean(body, field);
  for (const field of ['voice_id', 'wm_url', 'callback_url']) {
    if (body[field] !== undefined) stringField(body, field);
  }
  const position = body.wm_position;
  if (position !== undefined && (typeof position !== 'number' || ![1, 2, 3, 4].includes(position))) {
    refuse('FieldInvalid', 'wm_position must be 1, 2, 3 or 4');
  }
  if (body.meta_data !== undefined && !isJsonText(stringField(body, 'meta_data'))) {
    refuse('FieldInvalid', 'meta_data must be a JSON string');
  }
}

function stringField(body: Record<string, unknown>, field: string, owner?: string): string {
  const value = body[field];
  if (typeof value !== 'string')
    refuse('FieldInvalid', `${owner ? `${owner}.` : ''}${field} must be a string`);
  return value;
}

function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value !== undefined && typeof value !== 'boolean') refuse('FieldInvalid', `${field} must be a boolean`);
  return value;
}

function optionalOneOf(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly string[],
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !allowed.includes(value)) {
    refuse('FieldInvalid', `${field} must be one of ${allowed.join(', ')}`);
  }
  return value;
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
