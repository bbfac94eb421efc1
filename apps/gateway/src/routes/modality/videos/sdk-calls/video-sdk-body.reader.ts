import type { FastifyRequest } from 'fastify';
import { GatewayError } from '@gateway/errors';
import {
  readMultipartForm,
  type MultipartLimits,
  type UploadedFile,
} from '../../../../platform/http/multipart-form.reader';

/** A body of the SDK's newer video calls: its fields (a nested `video[id]` as `video: {id}`) and files. */
export interface VideoSdkBody {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

/** `video[id]`: how the SDK writes `{video: {id}}` as a form field. */
const NESTED_FIELD = /^([a-z_]{1,32})\[([a-z_]{1,32})\]$/;

/**
 * The SDK sends these calls as multipart/form-data (a clip, or a reference to a video of yours); the
 * wire also takes JSON. Either becomes one record of fields; a repeated text part keeps its last value.
 */
export async function readVideoSdkBody(
  request: FastifyRequest,
  body: unknown,
  limits: MultipartLimits,
): Promise<VideoSdkBody> {
  if (!isMultipart(request)) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw GatewayError.invalidRequest('The body must be a JSON object or multipart/form-data.', '(body)');
    }
    return { fields: body as Record<string, unknown>, files: [] };
  }
  const form = await readMultipartForm(request, limits);
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, values] of form.fields) {
    const value = values[values.length - 1];
    const nested = NESTED_FIELD.exec(name);
    if (!nested) {
      fields[name] = value;
      continue;
    }
    const [, outer, inner] = nested;
    const existing = fields[outer];
    const object =
      typeof existing === 'object' && existing !== null ? (existing as Record<string, unknown>) : {};
    fields[outer] = { ...object, [inner]: value };
  }
  return { fields, files: form.files };
}

function isMultipart(request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data') === true;
}
