import { MultipartForm } from '../../multipart-form.util';
import { isRecord } from '../../sample-arguments.util';
import { WireError } from '../../scripted-error';
import { decodeBase64Image, inspectImage } from '../../uploaded-image.util';
import {
  compatError,
  compatInvalidValue,
  compatMissingParameter,
  compatModelNotFound,
} from '../compat-errors';
import {
  CompatVideoRules,
  DEFAULT_VIDEO_MODEL,
  compatVideoRulesOf,
  videoDimensionsOf,
} from './compat-video-models';

/** A create request the wire accepted: what the video object echoes, and how many images came. */
export interface CompatVideoCreate {
  model: string;
  rules: CompatVideoRules;
  prompt: string;
  seconds: string;
  size: string;
  imageCount: number;
}

/** An input image as the create carried it: bytes (a file, a data: URI) or a link the wire fetches. */
type InputImage = { bytes: Buffer; name: string } | { url: string };

const FILE_FIELDS = new Set(['input_reference', 'input_reference[]']);
const POSITIVE_INTEGER = /^[1-9]\d*$/;

/** `POST /v1/videos` as JSON (upstreams.md §2.4): `images[]` and an `input_reference` value. */
export function toJsonVideoCreate(body: Record<string, unknown>): CompatVideoCreate | WireError {
  const model = typeof body['model'] === 'string' ? body['model'] : DEFAULT_VIDEO_MODEL;
  const rules = compatVideoRulesOf(model);
  if (!rules) return compatModelNotFound(model);
  if (rules.multipartOnly) {
    return compatError(
      400,
      `${model} creates videos from multipart/form-data only; send the fields and input_reference files as a form.`,
      'invalid_request_error',
      'invalid_request',
    );
  }
  for (const field of ['seconds', 'size', 'aspect_ratio'] as const) {
    if (body[field] !== undefined && typeof body[field] !== 'string') {
      return compatError(
        400,
        `Invalid type for '${field}': expected a string, but got ${typeof body[field]} instead.`,
        'invalid_request_error',
        'invalid_type',
        field,
      );
    }
  }
  const images = jsonImagesOf(body);
  if ('status' in images) return images;
  return checkCreate(model, rules, stringFields(body), images);
}

/** `POST /v1/videos` as multipart: text fields and repeatable `input_reference` files. */
export function toFormVideoCreate(form: MultipartForm): CompatVideoCreate | WireError {
  const fields = stringFields(lastValues(form.fields));
  const model = fields.model ?? DEFAULT_VIDEO_MODEL;
  const rules = compatVideoRulesOf(model);
  if (!rules) return compatModelNotFound(model);
  const images: InputImage[] = form.files
    .filter((file) => FILE_FIELDS.has(file.field))
    .map((file) => ({ bytes: file.bytes, name: file.filename }));
  return checkCreate(model, rules, fields, images);
}

interface CreateFields {
  prompt?: string;
  model?: string;
  seconds?: string;
  size?: string;
  aspect_ratio?: string;
}

function checkCreate(
  model: string,
  rules: CompatVideoRules,
  fields: CreateFields,
  images: InputImage[],
): CompatVideoCreate | WireError {
  if (!fields.prompt) return compatMissingParameter('prompt');
  const size = sizeOf(fields.size, rules);
  if (size === undefined) return refusedValue('size', fields.size ?? '', rules.sizes);
  const seconds = secondsOf(fields.seconds, rules);
  if (seconds === undefined) return refusedValue('seconds', fields.seconds ?? '', rules.seconds);
  const aspectRatio = fields.aspect_ratio;
  if (aspectRatio !== undefined && rules.aspectRatios && !rules.aspectRatios.includes(aspectRatio)) {
    return refusedValue('aspect_ratio', aspectRatio, rules.aspectRatios);
  }
  const eight = rules.eightSeconds;
  if (
    eight &&
    seconds !== '8' &&
    (eight.always || eight.sizes.includes(size) || (eight.withImages && images.length > 0))
  ) {
    return compatInvalidValue(
      'seconds',
      `Invalid value for 'seconds': ${model} makes 8-second videos only at this size, with reference images or when extending; got '${seconds}'.`,
    );
  }
  const imageRefusal = imagesRefusal(images, rules, size);
  if (imageRefusal) return imageRefusal;
  return { model, rules, prompt: fields.prompt, seconds, size, imageCount: images.length };
}

function sizeOf(requested: string | undefined, rules: CompatVideoRules): string | undefined {
  if (requested === undefined) return rules.defaultSize;
  if (rules.sizes === 'any') return requested;
  // Relays write `720p` as often as `720P`.
  return rules.sizes.find((size) => size.toLowerCase() === requested.toLowerCase());
}

/** The seconds the video will have; a fixed-duration model corrects any other value silently (†). */
function secondsOf(requested: string | undefined, rules: CompatVideoRules): string | undefined {
  if (rules.fixedSeconds) return rules.fixedSeconds;
  if (requested === undefined) return rules.defaultSeconds;
  if (rules.seconds === 'any') return POSITIVE_INTEGER.test(requested) ? requested : undefined;
  return rules.seconds.includes(requested) ? requested : undefined;
}

function imagesRefusal(images: InputImage[], rules: CompatVideoRules, size: string): WireError | undefined {
  if (images.length > rules.maxImages) {
    return compatInvalidValue(
      'input_reference',
      `Invalid 'input_reference': expected at most ${rules.maxImages} image${rules.maxImages === 1 ? '' : 's'}, got ${images.length}.`,
    );
  }
  for (const image of images) {
    if ('url' in image) continue;
    const inspected = inspectImage(image.bytes);
    if (!inspected) {
      return compatInvalidValue(
        'input_reference',
        `Invalid file '${image.name}': unsupported image format. Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
      );
    }
    const { width, height } = videoDimensionsOf(size);
    if (rules.imageMatchesSize && (inspected.width !== width || inspected.height !== height)) {
      return compatInvalidValue(
        'input_reference',
        `Inpaint image must match the requested width and height: the video is ${width}x${height}, the image ${inspected.width}x${inspected.height}.`,
      );
    }
  }
  return undefined;
}

/**
 * JSON images: `images[]` (URLs or `data:` URIs, relays) and `input_reference` as `{image_url}`,
 * `{file_id}` or a plain URL string. A `data:` URI that is not a Base64 image is refused.
 */
function jsonImagesOf(body: Record<string, unknown>): InputImage[] | WireError {
  const references: Array<{ field: string; value: unknown }> = [];
  const images = body['images'];
  if (images !== undefined) {
    if (!Array.isArray(images)) return compatInvalidValue('images', "Invalid 'images': expected an array.");
    for (const value of images) references.push({ field: 'images', value });
  }
  const inputReference = body['input_reference'];
  if (inputReference !== undefined) {
    const value = isRecord(inputReference)
      ? (inputReference['image_url'] ?? inputReference['file_id'])
      : inputReference;
    references.push({ field: 'input_reference', value });
  }
  const parsed: InputImage[] = [];
  for (const { field, value } of references) {
    if (typeof value !== 'string' || value === '') {
      return compatInvalidValue(
        field,
        `Invalid '${field}': expected an image URL, a data: URI or a file id.`,
      );
    }
    if (!value.startsWith('data:')) {
      parsed.push({ url: value });
      continue;
    }
    const bytes = decodeBase64Image(value);
    if (!bytes) return compatInvalidValue(field, `Invalid '${field}': the data: URI is not a Base64 image.`);
    parsed.push({ bytes, name: field });
  }
  return parsed;
}

function refusedValue(param: string, value: string, allowed: readonly string[] | 'any'): WireError {
  const expected =
    allowed === 'any' ? 'a positive integer' : `one of ${allowed.map((v) => `'${v}'`).join(', ')}`;
  return compatInvalidValue(param, `Invalid value: '${value}'. Supported values are: ${expected}.`);
}

function stringFields(body: Record<string, unknown>): CreateFields {
  const fields: CreateFields = {};
  for (const name of ['prompt', 'model', 'seconds', 'size', 'aspect_ratio'] as const) {
    const value = body[name];
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

function lastValues(fields: Record<string, string | string[]>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields))
    values[name] = Array.isArray(value) ? value[value.length - 1] : value;
  return values;
}
