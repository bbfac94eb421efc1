import { fileTypeFromBuffer } from 'file-type/core';
import type { FastifyRequest } from 'fastify';
import { VIDEO_UPLOAD_LIMITS } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { UploadedCharacter } from '../../../family/delta/character-creation.service';
import { uploadedCharacterFieldsOf } from '../../../family/delta/character-request';
import { readVideoSdkBody } from './video-sdk-body.reader';

/** One clip, a name and a model: nothing else is read. */
const CHARACTER_UPLOAD_LIMITS = { ...VIDEO_UPLOAD_LIMITS, files: 1, fields: 8, fieldBytes: 4096 };

/**
 * `POST /v1/videos/characters` (`videos.createCharacter`): multipart `name` and `video` (the clip
 * itself), and optionally `model` (a delta model, `delta-2` by default). The clip's bytes must be a
 * video whatever its part says, as for a clip the gateway downloads.
 */
export async function readUploadedCharacter(
  request: FastifyRequest,
  body: unknown,
): Promise<UploadedCharacter> {
  const { fields, files } = await readVideoSdkBody(request, body, CHARACTER_UPLOAD_LIMITS);
  const { model, name } = uploadedCharacterFieldsOf(fields);
  const clip = files.find((file) => file.field === 'video');
  if (!clip) {
    throw GatewayError.invalidRequest('video is required: the clip file (multipart/form-data).', 'video');
  }
  const type = await fileTypeFromBuffer(clip.bytes);
  if (!type?.mime.startsWith('video/')) {
    throw GatewayError.invalidRequest(
      `video is not a video (its bytes are ${type?.mime ?? 'of no known type'}).`,
      'video',
    );
  }
  return { model, name, clip: { bytes: clip.bytes, contentType: type.mime } };
}
