import {
  isVideoCall,
  type JsonObject,
  type SerialisableObject,
  type VideoCall,
} from '@gateway/providers-core';
import { omegaUpstreamModelOf } from './omega-models';

/** Options the rules keep in `extras` that belong in `input`; the others belong in `parameters`. */
const INPUT_OPTIONS = ['negative_prompt', 'audio_url'] as const;
const PARAMETER_OPTIONS = ['prompt_extend', 'shot_type', 'audio', 'watermark', 'seed'] as const;

/** The stored request as the video call the rules planned; a row of another shape fails loudly. */
export function omegaVideoCallOf(request: SerialisableObject): VideoCall {
  if (!isVideoCall(request) || typeof request.seconds !== 'number' || typeof request.size !== 'string') {
    throw new TypeError('an omega task request must be a video call planned by the omega rules');
  }
  return request;
}

/**
 * The §8.3 submission: the model before the colon; text to video sends the size (`W*H`, asterisk),
 * first-frame-to-video the first frame in `img_url` and the tier in `resolution`.
 */
export function toOmegaSubmitBody(upstreamModel: string, call: VideoCall): JsonObject {
  const input: JsonObject = {};
  if (call.prompt !== '') input.prompt = call.prompt;
  const firstFrame = call.images.find((image) => image.role === 'first_frame');
  if (firstFrame) input.img_url = firstFrame.url;
  for (const name of INPUT_OPTIONS) if (call.extras[name] !== undefined) input[name] = call.extras[name];
  const parameters: JsonObject = firstFrame
    ? { resolution: call.size, duration: call.seconds }
    : { size: call.size, duration: call.seconds };
  for (const name of PARAMETER_OPTIONS)
    if (call.extras[name] !== undefined) parameters[name] = call.extras[name];
  return { model: omegaUpstreamModelOf(upstreamModel), input, parameters };
}
