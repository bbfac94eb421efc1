import {
  isVideoCall,
  type JsonObject,
  type SerialisableObject,
  type VideoCall,
} from '@gateway/providers-core';
import { MU_BOOLEAN_OPTIONS, muVideoModelOf } from './mu-models';

/** The stored request as the video call the rules planned; a row of another shape fails loudly. */
export function muVideoCallOf(request: SerialisableObject): VideoCall {
  if (!isVideoCall(request) || typeof request.seconds !== 'number' || typeof request.size !== 'string') {
    throw new TypeError('a mu task request must be a video call planned by the mu rules');
  }
  return request;
}

/**
 * The §7.3 submission for a planned call. The public model name becomes the upstream's id; a channel
 * that maps the model to an upstream id of its own sends that id as it is.
 */
export function toMuSubmitBody(upstreamModel: string, call: VideoCall): JsonObject {
  const firstFrame = call.images.find((image) => image.role === 'first_frame');
  const body: JsonObject = {
    model: muVideoModelOf(upstreamModel)?.upstreamId ?? upstreamModel,
    duration: call.seconds,
    resolution: call.size,
  };
  if (call.prompt !== '') body.prompt = call.prompt;
  if (firstFrame) body.first_frame_image = firstFrame.url;
  for (const name of MU_BOOLEAN_OPTIONS) {
    if (typeof call.extras[name] === 'boolean') body[name] = call.extras[name];
  }
  return body;
}
