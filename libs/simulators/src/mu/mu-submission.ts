import { isImageDataUri } from '../uploaded-image.util';
import { isRecord } from '../sample-arguments.util';
import {
  MU_DEFAULT_DURATION,
  MU_DURATIONS,
  MU_MAX_PROMPT_CHARACTERS,
  MU_MODELS,
  MU_TEN_SECOND_RESOLUTIONS,
} from './mu-models';

/** A submission that passed the §7.3 checks. */
export interface MuSubmission {
  model: string;
  prompt: string;
  duration: number;
  resolution: string;
}

/** The submission, or the rule it broke (the `status_msg` detail of a 2013). */
export type MuSubmissionResult = { submission: MuSubmission } | { refusal: string };

const HTTP_URL = /^https?:\/\/\S+$/i;
const BOOLEAN_FIELDS = ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'] as const;

/** Checks a submission as the wire does (upstreams.md §7.3), one rule at a time. */
export function toMuSubmission(body: Record<string, unknown>): MuSubmissionResult {
  const model = body['model'];
  if (typeof model !== 'string' || !Object.hasOwn(MU_MODELS, model)) {
    return { refusal: `model must be one of ${Object.keys(MU_MODELS).join(', ')}` };
  }
  const rules = MU_MODELS[model];
  const prompt = body['prompt'] ?? '';
  if (typeof prompt !== 'string') return { refusal: 'prompt must be a string' };
  if ([...prompt].length > MU_MAX_PROMPT_CHARACTERS) {
    return { refusal: `prompt must be at most ${MU_MAX_PROMPT_CHARACTERS} characters` };
  }
  for (const field of BOOLEAN_FIELDS) {
    if (body[field] !== undefined && typeof body[field] !== 'boolean')
      return { refusal: `${field} must be a boolean` };
  }
  if (body['callback_url'] !== undefined && !isHttpUrl(body['callback_url'])) {
    return { refusal: 'callback_url must be an http(s) URL' };
  }
  const images = imageRefusal(body, model);
  if (images) return { refusal: images };
  if (
    rules.firstFrame !== 'required' &&
    !rules.subject &&
    body['first_frame_image'] === undefined &&
    prompt.trim() === ''
  ) {
    return { refusal: `prompt is required for ${model} without first_frame_image` };
  }
  const duration = body['duration'] ?? MU_DEFAULT_DURATION;
  if (typeof duration !== 'number' || !MU_DURATIONS.includes(duration)) {
    return { refusal: `duration must be ${MU_DURATIONS.join(' or ')}` };
  }
  const resolution = body['resolution'] ?? rules.defaultResolution;
  if (typeof resolution !== 'string' || !rules.resolutions.includes(resolution)) {
    return { refusal: `resolution must be ${rules.resolutions.join(', ')} for ${model}` };
  }
  if (duration === 10 && !MU_TEN_SECOND_RESOLUTIONS.includes(resolution)) {
    return { refusal: `duration 10 is only available at ${MU_TEN_SECOND_RESOLUTIONS.join(' or ')}` };
  }
  return { submission: { model, prompt, duration, resolution } };
}

/** The image fields each model takes: first frame, last frame (02), subject reference (S2V-01). */
function imageRefusal(body: Record<string, unknown>, model: string): string | undefined {
  const rules = MU_MODELS[model];
  const firstFrame = body['first_frame_image'];
  if (firstFrame === undefined) {
    if (rules.firstFrame === 'required') return `first_frame_image is required for ${model}`;
  } else if (rules.firstFrame === 'none') {
    return `first_frame_image is not supported by ${model}`;
  } else if (!isImageReference(firstFrame)) {
    return 'first_frame_image must be an http(s) URL or a data:image/...;base64, URI';
  }
  const lastFrame = body['last_frame_image'];
  if (lastFrame !== undefined) {
    if (!rules.lastFrame) return `last_frame_image is not supported by ${model}`;
    if (firstFrame === undefined) return 'last_frame_image needs first_frame_image';
    if (!isImageReference(lastFrame))
      return 'last_frame_image must be an http(s) URL or a data:image/...;base64, URI';
  }
  const subjects = body['subject_reference'];
  if (subjects === undefined) return rules.subject ? `subject_reference is required for ${model}` : undefined;
  if (!rules.subject) return `subject_reference is not supported by ${model}`;
  const valid =
    Array.isArray(subjects) &&
    subjects.length === 1 &&
    subjects.every(
      (subject) =>
        isRecord(subject) &&
        subject['type'] === 'character' &&
        Array.isArray(subject['image']) &&
        subject['image'].length === 1 &&
        subject['image'].every(isImageReference),
    );
  return valid ? undefined : 'subject_reference must be [{"type":"character","image":[<one image>]}]';
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && HTTP_URL.test(value);
}

function isImageReference(value: unknown): boolean {
  return typeof value === 'string' && (HTTP_URL.test(value) || isImageDataUri(value));
}
