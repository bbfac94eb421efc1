import { isImageDataUri } from '../uploaded-image.util';
import { isRecord } from '../sample-arguments.util';
import {
  OMEGA_DEFAULT_DURATION,
  OMEGA_DEFAULT_RESOLUTION,
  OMEGA_DEFAULT_SIZE,
  OMEGA_MAX_SEED,
  OMEGA_MODELS,
  OMEGA_RESOLUTIONS,
  OMEGA_SHOT_TYPES,
  OMEGA_SIZES,
  OmegaModelRules,
} from './omega-models';

/** A submission that passed the §8.3 checks, with what the query reports of it. */
export interface OmegaSubmission {
  model: string;
  prompt: string;
  duration: number;
  /** The output resolution tier, `usage.SR`. */
  tier: 720 | 1080;
}

/** The submission, or the rule it broke (an `InvalidParameter` message). */
export type OmegaSubmissionResult = { submission: OmegaSubmission } | { refusal: string };

const HTTP_URL = /^https?:\/\/\S+$/i;
const SIZE_WITH_X = /^\d+\s*[x×]\s*\d+$/i;
const BOOLEAN_PARAMETERS = ['prompt_extend', 'audio', 'watermark'] as const;

/** Checks a submission as the wire does (upstreams.md §8.3), one rule at a time. */
export function toOmegaSubmission(body: Record<string, unknown>): OmegaSubmissionResult {
  const model = body['model'];
  if (typeof model !== 'string' || !Object.hasOwn(OMEGA_MODELS, model)) {
    return { refusal: `Model not exist: model must be one of ${Object.keys(OMEGA_MODELS).join(', ')}` };
  }
  const rules = OMEGA_MODELS[model];
  const input = body['input'];
  if (!isRecord(input)) return { refusal: 'input must be an object' };
  const parameters = body['parameters'] ?? {};
  if (!isRecord(parameters)) return { refusal: 'parameters must be an object' };
  const prompt = input['prompt'] ?? '';
  if (typeof prompt !== 'string') return { refusal: 'input.prompt must be a string' };
  if (rules.input !== 'image' && prompt.trim() === '')
    return { refusal: `input.prompt is required for ${model}` };
  const inputRefusal = inputFieldsRefusal(input, rules, model);
  if (inputRefusal) return { refusal: inputRefusal };
  const tier = tierOf(parameters, rules, model);
  if (typeof tier === 'string') return { refusal: tier };
  const duration = parameters['duration'] ?? OMEGA_DEFAULT_DURATION;
  if (typeof duration !== 'number' || !rules.durations.includes(duration)) {
    return { refusal: `parameters.duration must be ${rules.durations.join(', ')} for ${model}` };
  }
  const optionRefusal = optionsRefusal(parameters);
  if (optionRefusal) return { refusal: optionRefusal };
  return { submission: { model, prompt, duration, tier } };
}

function inputFieldsRefusal(
  input: Record<string, unknown>,
  rules: OmegaModelRules,
  model: string,
): string | undefined {
  if (input['negative_prompt'] !== undefined && typeof input['negative_prompt'] !== 'string') {
    return 'input.negative_prompt must be a string';
  }
  const image = input['img_url'];
  if (rules.input === 'image') {
    if (image === undefined) return `input.img_url is required for ${model}`;
    if (!isImageReference(image))
      return 'input.img_url must be an http(s) URL or a data:image/...;base64, URI';
  } else if (image !== undefined) {
    return `input.img_url is not supported by ${model}`;
  }
  const references = input['reference_video_urls'];
  if (rules.input === 'reference') {
    if (!Array.isArray(references) || references.length === 0 || !references.every(isHttpUrl)) {
      return `input.reference_video_urls must list http(s) URLs for ${model}`;
    }
  } else if (references !== undefined) {
    return `input.reference_video_urls is not supported by ${model}`;
  }
  if (input['audio_url'] !== undefined && !isHttpUrl(input['audio_url']))
    return 'input.audio_url must be an http(s) URL';
  return undefined;
}

/** t2v and r2v take `size` (`W*H`, asterisk); i2v takes `resolution`; each refuses the other. */
function tierOf(
  parameters: Record<string, unknown>,
  rules: OmegaModelRules,
  model: string,
): 720 | 1080 | string {
  if (rules.input === 'image') {
    if (parameters['size'] !== undefined)
      return `parameters.size is not supported by ${model}; use parameters.resolution`;
    const resolution = parameters['resolution'] ?? OMEGA_DEFAULT_RESOLUTION;
    if (typeof resolution !== 'string' || !Object.hasOwn(OMEGA_RESOLUTIONS, resolution)) {
      return `parameters.resolution must be ${Object.keys(OMEGA_RESOLUTIONS).join(', ')}`;
    }
    return OMEGA_RESOLUTIONS[resolution];
  }
  if (parameters['resolution'] !== undefined)
    return `parameters.resolution is not supported by ${model}; use parameters.size`;
  const size = parameters['size'] ?? OMEGA_DEFAULT_SIZE;
  if (typeof size === 'string' && SIZE_WITH_X.test(size)) {
    return `parameters.size must be written with an asterisk, e.g. 1280*720, not ${size}`;
  }
  if (typeof size !== 'string' || !Object.hasOwn(OMEGA_SIZES, size)) {
    return `parameters.size must be one of ${Object.keys(OMEGA_SIZES).join(', ')}`;
  }
  return OMEGA_SIZES[size];
}

function optionsRefusal(parameters: Record<string, unknown>): string | undefined {
  for (const field of BOOLEAN_PARAMETERS) {
    if (parameters[field] !== undefined && typeof parameters[field] !== 'boolean') {
      return `parameters.${field} must be a boolean`;
    }
  }
  const shotType = parameters['shot_type'];
  if (shotType !== undefined && (typeof shotType !== 'string' || !OMEGA_SHOT_TYPES.includes(shotType))) {
    return `parameters.shot_type must be ${OMEGA_SHOT_TYPES.join(' or ')}`;
  }
  const seed = parameters['seed'];
  if (
    seed !== undefined &&
    (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > OMEGA_MAX_SEED)
  ) {
    return `parameters.seed must be an integer from 0 to ${OMEGA_MAX_SEED}`;
  }
  return undefined;
}

function isHttpUrl(value: unknown): boolean {
  return typeof value === 'string' && HTTP_URL.test(value);
}

function isImageReference(value: unknown): boolean {
  return typeof value === 'string' && (HTTP_URL.test(value) || isImageDataUri(value));
}
