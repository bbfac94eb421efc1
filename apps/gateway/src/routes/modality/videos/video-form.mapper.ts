import { isJsonObject, parseJsonObject, type VideoImage } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { MultipartForm } from '../../../platform/http/multipart-form.reader';
import { uploadedImageUrl } from './video-image-input';

/** A create form read as the JSON body it stands for, and its uploaded input references. */
export interface VideoForm {
  body: Record<string, unknown>;
  /** The `input_reference` files, in order, as `data:` URIs. */
  uploads: string[];
  /** The `first_frame_image` and `last_frame_image` files (the eta-theta 1.x style), as `data:` URIs with their roles. */
  frames: VideoImage[];
}

const INPUT_REFERENCE_FIELDS: ReadonlySet<string> = new Set(['input_reference', 'input_reference[]']);
/** The frame files of the eta-theta 1.x style (interface spec, image input by submission style). */
const FRAME_FIELDS: Readonly<Record<string, VideoImage['role']>> = {
  first_frame_image: 'first_frame',
  last_frame_image: 'last_frame',
};
/** `name`, `name[key]`, `name[key][]` …: how form clients (the official SDK among them) write nested values. */
const FIELD_NAME = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;
const SEGMENT = /\[([^[\]]*)\]/g;
const MAX_DEPTH = 4;
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A multipart `POST /v1/videos` as the body the JSON style would send: text parts by name, nested by
 * their brackets (`metadata[output_config][resolution]`, `images[]`, `input_reference[image_url]`), a
 * `metadata` part holding a JSON object parsed; `input_reference` files (repeatable), and one
 * `first_frame_image` and one `last_frame_image` file, checked to be PNG, JPEG or WebP by their bytes.
 * A part sent twice, a file in another field, a name that nests badly: 400.
 */
export function videoFormOf(form: MultipartForm): VideoForm {
  const body: Record<string, unknown> = {};
  for (const [name, values] of form.fields) {
    for (const value of values) place(body, name, value);
  }
  if (typeof body['metadata'] === 'string') body['metadata'] = metadataOf(body['metadata']);
  const uploads: string[] = [];
  const frames: VideoImage[] = [];
  for (const file of form.files) {
    if (Object.hasOwn(FRAME_FIELDS, file.field)) {
      if (frames.some((frame) => frame.source === file.field)) throw sentTwice(file.field);
      const url = uploadedImageUrl(file.bytes, file.field);
      frames.push({ role: FRAME_FIELDS[file.field], url, source: file.field });
    } else if (INPUT_REFERENCE_FIELDS.has(file.field)) {
      uploads.push(uploadedImageUrl(file.bytes, `input_reference[${uploads.length}]`));
    } else {
      throw GatewayError.invalidRequest(`Unexpected file in form field '${file.field}'.`, file.field);
    }
  }
  return { body, uploads, frames };
}

function place(body: Record<string, unknown>, name: string, value: string): void {
  const path = pathOf(name);
  let target = body;
  for (let depth = 0; depth < path.length - 1; depth++) {
    const key = path[depth];
    const existing = target[key];
    // pathOf allows `[]` last only.
    if (path[depth + 1] === '') {
      if (existing === undefined) target[key] = [value];
      else if (Array.isArray(existing)) existing.push(value);
      else throw sentTwice(name);
      return;
    }
    if (existing === undefined) target[key] = {};
    else if (!isJsonObject(existing)) throw sentTwice(name);
    target = target[key] as Record<string, unknown>;
  }
  const key = path[path.length - 1];
  if (Object.hasOwn(target, key)) throw sentTwice(name);
  target[key] = value;
}

function pathOf(name: string): string[] {
  const match = FIELD_NAME.exec(name);
  if (!match) throw badName(name);
  const path = [match[1], ...Array.from(match[2].matchAll(SEGMENT), (segment) => segment[1])];
  if (path.length > MAX_DEPTH || path.some((key) => RESERVED_KEYS.has(key))) throw badName(name);
  if (path.slice(0, -1).some((key, index) => key === '' && index > 0)) throw badName(name);
  return path;
}

function metadataOf(text: string): Record<string, unknown> {
  const parsed = parseJsonObject(text);
  if (!parsed) throw GatewayError.invalidRequest('metadata must be a JSON object.', 'metadata');
  return parsed;
}

function badName(name: string): GatewayError {
  return GatewayError.invalidRequest(`The form field name '${name}' cannot be read.`, name);
}

function sentTwice(name: string): GatewayError {
  return GatewayError.invalidRequest(
    `The form field '${name}' is sent twice or conflicts with another.`,
    name,
  );
}
