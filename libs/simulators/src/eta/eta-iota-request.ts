import { isRecord } from '../sample-arguments.util';
import { WireError } from '../scripted-error';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';
import { etaInvalidParameter, etaMissingParameter, etaModelNotFound } from './eta-errors';
import { iotaRulesOf, resolveIotaSize } from './eta-iota-models';

/** A validated iota image request (upstreams.md §6.3). */
export interface IotaJob {
  model: string;
  width: number;
  height: number;
  /** `sequential_image_generation: auto`: the answer is a group whose size the model chooses. */
  group: boolean;
  /** `sequential_image_generation_options.max_images`, when given. */
  maxImages?: number;
  referenceCount: number;
  responseFormat: 'url' | 'b64_json';
  stream: boolean;
}

export type IotaJobResult = { job: IotaJob } | { error: WireError };

/** References plus outputs of one request (§6.3). */
export const IOTA_MAX_IMAGES_PER_REQUEST = 15;
const MAX_PROMPT_WORDS = 600;
const MAX_PROMPT_CJK_CHARACTERS = 300;
const CJK_CHARACTER = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/g;
const HTTP_URL = /^https?:\/\/\S+$/;

export function toIotaJob(body: Record<string, unknown>, requestId: string): IotaJobResult {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') return { error: etaMissingParameter('model', requestId) };
  const rules = iotaRulesOf(model);
  if (!rules) return { error: etaModelNotFound(model, requestId) };
  const invalid = (param: string, reason: string, code?: string): IotaJobResult => ({
    error: etaInvalidParameter(param, reason, requestId, code),
  });

  const prompt = body['prompt'];
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { error: etaMissingParameter('prompt', requestId) };
  if (promptTooLong(prompt)) return invalid('prompt', 'the prompt is too long.');

  const references = body['image'] === undefined ? [] : [body['image']].flat();
  if (references.length > rules.maxReferences) {
    return invalid('image', `at most ${rules.maxReferences} reference images are supported.`);
  }
  for (const reference of references) {
    const refusal = referenceRefusal(reference);
    if (refusal) return invalid('image', refusal.reason, refusal.code);
  }

  const size = body['size'];
  if (size !== undefined && typeof size !== 'string') return invalid('size', 'size must be a string.');
  const resolved = resolveIotaSize(rules, size);
  if ('refusal' in resolved) return invalid('size', resolved.refusal);

  const sequential = body['sequential_image_generation'] ?? 'disabled';
  if (sequential !== 'auto' && sequential !== 'disabled') {
    return invalid('sequential_image_generation', 'expected auto or disabled.');
  }
  const options = body['sequential_image_generation_options'];
  if (options !== undefined && !isRecord(options)) {
    return invalid('sequential_image_generation_options', 'expected an object.');
  }
  const maxImages = options?.['max_images'];
  if (maxImages !== undefined && !isIntegerIn(maxImages, 1, IOTA_MAX_IMAGES_PER_REQUEST)) {
    return invalid('sequential_image_generation_options.max_images', 'expected an integer from 1 to 15.');
  }
  const responseFormat = body['response_format'] ?? 'url';
  if (responseFormat !== 'url' && responseFormat !== 'b64_json') {
    return invalid('response_format', 'expected url or b64_json.');
  }
  for (const flag of ['watermark', 'stream']) {
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
      return invalid(flag, 'expected a boolean.');
  }
  if (body['seed'] !== undefined && !isIntegerIn(body['seed'], -1, 2 ** 31 - 1)) {
    return invalid('seed', 'expected an integer from -1 to 2147483647.');
  }
  return {
    job: {
      model,
      ...resolved,
      group: sequential === 'auto',
      maxImages: maxImages as number | undefined,
      referenceCount: references.length,
      responseFormat,
      stream: body['stream'] === true,
    },
  };
}

/** "About 300 CJK characters or 600 words" (§6.3), read as either bound. */
function promptTooLong(prompt: string): boolean {
  const cjkCharacters = prompt.match(CJK_CHARACTER)?.length ?? 0;
  const words = prompt.replace(CJK_CHARACTER, ' ').split(/\s+/).filter(Boolean).length;
  return cjkCharacters > MAX_PROMPT_CJK_CHARACTERS || words > MAX_PROMPT_WORDS;
}

/** A reference is an http(s) URL (not fetched) or a `data:` Base64 image. */
function referenceRefusal(reference: unknown): { reason: string; code?: string } | undefined {
  if (typeof reference !== 'string') return { reason: 'each image must be a URL or a data: URL.' };
  if (HTTP_URL.test(reference)) return undefined;
  if (!reference.startsWith('data:image/')) return { reason: 'each image must be a URL or a data: URL.' };
  const bytes = decodeBase64Image(reference);
  return bytes && inspectImage(bytes)
    ? undefined
    : { reason: 'the image data is not a supported image.', code: 'InvalidParameter.UnsupportedImageFormat' };
}

function isIntegerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}
