import { VIDEO_EXTENSION_FAMILIES } from '@gateway/providers';
import { GatewayError } from '@gateway/errors';

/**
 * `POST /v1/videos/edits` (`videos.edit`): no channel type the gateway speaks has a video edit call, so
 * every edit is a 400 that says so and names what can continue a completed video instead. When a wire
 * gains edits, this becomes a route like the extension's.
 */
export function videoEditRefusal(): GatewayError {
  return GatewayError.invalidRequest(
    'No video family served here edits a video: none of their wires has edits. To make a new video ' +
      'from a completed one, extend or remix it (POST /v1/videos/extensions, POST /v1/videos/{id}/remix) ' +
      `with a family that can: ${VIDEO_EXTENSION_FAMILIES.join(', ')}.`,
    'video',
  );
}
