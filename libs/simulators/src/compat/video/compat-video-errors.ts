import { WireError } from '../../scripted-error';
import { compatError } from '../compat-errors';

export function videoNotFound(id: string): WireError {
  return compatError(404, `Video with id '${id}' not found.`, 'invalid_request_error', 'not_found');
}

export function characterNotFound(id: string): WireError {
  return compatError(404, `Character with id '${id}' not found.`, 'invalid_request_error', 'not_found');
}

/** `/content` and remix need a completed video. */
export function videoNotCompleted(id: string, action: string): WireError {
  return compatError(
    400,
    `Video '${id}' is not completed; ${action} needs a completed video.`,
    'invalid_request_error',
    'invalid_request',
  );
}

/**
 * A prompt refused at create (`block=prompt`): `delta-*` say `moderation_blocked`‡, relays
 * `content_policy_violation` (upstreams.md §2.4, §2.5); `code=` picks either.
 */
export function videoModerationRefusal(model: string, code: string | undefined): WireError {
  const chosen = code ?? (model.startsWith('delta-') ? 'moderation_blocked' : 'content_policy_violation');
  return compatError(
    400,
    'Your request was blocked by our moderation system.',
    'invalid_request_error',
    chosen,
  );
}
