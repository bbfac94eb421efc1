import { VIDEO_EXTENSION_FAMILIES } from '@gateway/providers';
import { GatewayError } from '../../../../platform/errors/gateway-error';
import type { VideoSdkBody } from './video-sdk-body.reader';

/** An extension: the completed video it continues, and the remix body it becomes. */
export interface VideoExtensionRequest {
  videoId: string;
  /** What `POST /v1/videos/{id}/remix` takes: the prompt, the seconds, the model if named. */
  remixBody: Record<string, unknown>;
}

const MAX_ID_LENGTH = 128;

/**
 * `POST /v1/videos/extensions` (`videos.extend`): `{prompt, seconds, video: {id}}`. An extension is
 * the remix of a completed video of yours on the channel that made it, where the family's wire has
 * remix or extension. An uploaded clip (`video` as a file, or `video: {url}`) is refused: no family
 * served here extends a clip it did not make.
 */
export function toVideoExtensionRequest(body: VideoSdkBody): VideoExtensionRequest {
  const { fields, files } = body;
  if (files.some((file) => file.field === 'video') || hasField(fields['video'], 'url')) {
    throw GatewayError.invalidRequest(
      'An extension continues a completed video of yours: send video: {"id": "<its id>"}. No family ' +
        `served here extends an uploaded clip; the families that extend are ${VIDEO_EXTENSION_FAMILIES.join(', ')}.`,
      'video',
    );
  }
  const videoId = idOf(fields['video']);
  const remixBody: Record<string, unknown> = { prompt: fields['prompt'] };
  for (const name of ['seconds', 'model'] as const) {
    if (fields[name] !== undefined) remixBody[name] = fields[name];
  }
  return { videoId, remixBody };
}

/** The reference of `video: {id}`, as an edit or an extension names it. */
export function idOf(video: unknown): string {
  const id =
    typeof video === 'object' && video !== null ? (video as Record<string, unknown>)['id'] : undefined;
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) {
    throw GatewayError.invalidRequest(
      'video must be {"id": "<the id of a completed video of yours>"}.',
      'video',
    );
  }
  return id;
}

function hasField(value: unknown, name: string): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, name);
}
