import type { VideoCall, VideoPlan, VideoRequest, VideoRules } from '@gateway/providers-core';
import { alphaExtrasOf } from './alpha-extras.rules';
import { alphaInputsOf } from './alpha-inputs.rules';
import { alphaModelRules, ALPHA_VIDEO_MODELS } from './alpha-models';
import { alphaOutputOf } from './alpha-output.rules';
import { alphaRefusal } from './alpha-refusal';

/** §3.3/§3.7: prompts of at most 5000 characters. */
export const ALPHA_MAX_PROMPT_CHARACTERS = 5000;

/**
 * The alpha family's rules (upstreams.md §3.3, §3.7; interface spec "Reference-to-video request" and
 * the alpha constraints), the same whichever route carried the request: the inputs choose the mode
 * (and so the endpoint), then duration, resolution, aspect ratio and the pass-through fields are
 * checked by model. The 20 MB body limit is the route's; an image over 50 MB is refused here with 413.
 */
export function planAlphaVideo(request: VideoRequest): VideoPlan {
  const rules = alphaModelRules(request.model);
  if (!rules) return alphaRefusal('model', `model must be one of ${ALPHA_VIDEO_MODELS.join(', ')}`);
  const prompt: unknown = request.prompt ?? '';
  if (typeof prompt !== 'string') return alphaRefusal('prompt', 'prompt must be a string');
  if (prompt.length > ALPHA_MAX_PROMPT_CHARACTERS) {
    return alphaRefusal('prompt', `prompt must be at most ${ALPHA_MAX_PROMPT_CHARACTERS} characters`);
  }
  const inputs = alphaInputsOf(request);
  if (!inputs.ok) return inputs;
  const { mode, images, subjects } = inputs.value;
  if (mode === 'text' && prompt.trim() === '') {
    return alphaRefusal('prompt', 'prompt is required for text-to-video (no image was given)');
  }
  const warnings: string[] = [];
  const output = alphaOutputOf(request, rules, mode, warnings);
  if (!output.ok) return output;
  const extras = alphaExtrasOf(request, rules, mode, warnings);
  if (!extras.ok) return extras;
  const call: VideoCall = {
    kind: 'video',
    family: 'alpha',
    mode,
    prompt,
    seconds: output.value.seconds,
    resolution: output.value.resolution,
    size: null,
    aspectRatio: output.value.aspectRatio,
    images,
    clips: [],
    subjects,
    metadata: null,
    extras: extras.value,
    remixOf: null,
  };
  return { ok: true, call, warnings };
}

export const alphaVideoRules: VideoRules = {
  servesVideoModel: (model) => alphaModelRules(model) !== undefined,
  planVideo: planAlphaVideo,
};
