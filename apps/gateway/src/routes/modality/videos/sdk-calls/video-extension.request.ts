import { ApiProperty } from '@nestjs/swagger';
import { combinePropertyDecorators, ValidateRule } from '@gateway/contracts';
import { VIDEO_EXTENSION_FAMILIES } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';
import { firstFaultRefused } from '../../../../platform/http/body-validation.util';
import { declaredBodyOf, type BodyDeclaration } from '../../../../platform/http/declared-body';
import type { VideoSdkBody } from './video-sdk-body.reader';

/** An extension: the completed video it continues, and the remix body it becomes. */
export interface VideoExtensionRequest {
  videoId: string;
  /** What `POST /v1/videos/{id}/remix` takes: the prompt, the seconds, the model if named. */
  remixBody: Record<string, unknown>;
}

const MAX_ID_LENGTH = 128;

/** `video: {id}`: the completed video an extension continues. */
export class VideoReferenceDto {
  @ApiProperty({ description: 'The id of a completed video of yours.', maxLength: MAX_ID_LENGTH })
  id: string;
}

/**
 * Body of `POST /v1/videos/extensions`, JSON or multipart (`video[id]`). `video` is checked here;
 * `prompt`, `seconds` and `model` are the remix's, checked as its body (REMIX_VIDEO_BODY) once the
 * video is found.
 */
export class VideoExtensionRequestDto {
  @ApiProperty({ description: 'What happens next in the video.' })
  prompt: string;

  @ApiProperty({ required: false, example: '8', description: 'How many seconds to add.' })
  seconds?: string;

  @ApiProperty({ required: false, description: 'The model; by default the one that made the video.' })
  model?: string;

  @combinePropertyDecorators(
    ApiProperty({ type: VideoReferenceDto }),
    ValidateRule('videoReference', videoReferenceProblem),
  )
  video: VideoReferenceDto;
}

/**
 * The extension's declared body: an uploaded clip (`video: {url}`) is refused first, naming what can
 * extend; then `video` must name a video by its id.
 */
export const VIDEO_EXTENSION_BODY: BodyDeclaration<VideoExtensionRequestDto> = {
  dto: VideoExtensionRequestDto,
  validate: (dto, fields) => {
    if (hasField((fields as Record<string, unknown>)['video'], 'url')) throw uploadedClipRefusal();
    return firstFaultRefused(dto, fields);
  },
};

/**
 * `POST /v1/videos/extensions` (`videos.extend`): `{prompt, seconds, video: {id}}`. An extension is
 * the remix of a completed video of yours on the channel that made it, where the family's wire has
 * remix or extension. An uploaded clip (`video` as a file, or `video: {url}`) is refused: no family
 * served here extends a clip it did not make.
 */
export function toVideoExtensionRequest(body: VideoSdkBody): VideoExtensionRequest {
  const { fields, files } = body;
  if (files.some((file) => file.field === 'video')) throw uploadedClipRefusal();
  // Only the fields the DTO names: a form's others, whatever their names, are ignored.
  const named = {
    prompt: fields['prompt'],
    seconds: fields['seconds'],
    model: fields['model'],
    video: fields['video'],
  };
  const { video } = declaredBodyOf(named, VIDEO_EXTENSION_BODY).fields();
  const remixBody: Record<string, unknown> = { prompt: fields['prompt'] };
  for (const name of ['seconds', 'model'] as const) {
    if (fields[name] !== undefined) remixBody[name] = fields[name];
  }
  return { videoId: video.id, remixBody };
}

function uploadedClipRefusal(): GatewayError {
  return GatewayError.invalidRequest(
    'An extension continues a completed video of yours: send video: {"id": "<its id>"}. No family ' +
      `served here extends an uploaded clip; the families that extend are ${VIDEO_EXTENSION_FAMILIES.join(', ')}.`,
    'video',
  );
}

/** A problem with the reference of `video: {id}`; undefined when it names a video. */
function videoReferenceProblem(video: unknown): string | undefined {
  const id =
    typeof video === 'object' && video !== null ? (video as Record<string, unknown>)['id'] : undefined;
  return typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH
    ? 'must be {"id": "<the id of a completed video of yours>"}'
    : undefined;
}

function hasField(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, name);
}
