import { ImageFormat } from '../image-bytes.util';
import { WireError } from '../scripted-error';
import { decodeBase64Image, inspectImage } from '../uploaded-image.util';
import {
  compatError,
  compatInvalidValue,
  compatMissingParameter,
  compatModelNotFound,
  compatUnknownParameter,
} from './compat-errors';
import {
  CompatImageRules,
  compatImageRulesOf,
  resolveCompatSize,
  unsupportedValueMessage,
} from './compat-image-models';

/** A validated image generation or edit: what to produce and how to answer (upstreams.md §2.3). */
export interface CompatImageJob {
  model: string;
  rules: CompatImageRules;
  prompt: string;
  count: number;
  width: number;
  height: number;
  /** Resolved tier, reported by `img-*` (`auto` is reported as `high`). */
  quality?: string;
  responseFormat: 'url' | 'b64_json';
  background?: string;
  outputFormat: ImageFormat;
  /** Input images (edits, or relay references), for the usage count. */
  inputImageCount: number;
}

export type CompatImageJobResult = { job: CompatImageJob } | { error: WireError };

const OUTPUT_FORMATS: readonly ImageFormat[] = ['png', 'jpeg', 'webp'];
const MODERATION_LEVELS = ['auto', 'low'];
const INPUT_FIDELITIES = ['high', 'low'];
const RESOLVED_AUTO_QUALITY = 'high';
const RESOLVED_AUTO_BACKGROUND = 'opaque';
const COMPRESSION_MAX = 100;

/**
 * Validates the fields common to generations and edits. Edit forms arrive as text; their numeric
 * fields are converted before they come here, so both routes share one set of rules.
 */
export function toCompatImageJob(
  body: Record<string, unknown>,
  route: 'generation' | 'edit',
): CompatImageJobResult {
  const model = body['model'];
  if (typeof model !== 'string' || model === '') return { error: compatMissingParameter('model') };
  const rules = compatImageRulesOf(model);
  if (!rules) return { error: compatModelNotFound(model) };
  if (route === 'edit' && !rules.edits) {
    return { error: compatInvalidValue('model', `The model '${model}' does not support image edits.`) };
  }
  if ('response_format' in body && !rules.responseFormats) {
    return { error: compatUnknownParameter('response_format') };
  }
  const prompt = body['prompt'];
  if (typeof prompt !== 'string' || prompt === '') return { error: compatMissingParameter('prompt') };
  if (rules.promptMaxLength !== undefined && prompt.length > rules.promptMaxLength) {
    return { error: stringTooLong('prompt', rules.promptMaxLength, prompt.length) };
  }
  const count = countOf(body['n'], rules.maxImages);
  if (typeof count !== 'number') return { error: count };
  const size = body['size'];
  if (size !== undefined && typeof size !== 'string') return { error: invalidType('size', 'a string', size) };
  const resolved = resolveCompatSize(rules, size);
  if ('refusal' in resolved) return { error: compatInvalidValue('size', resolved.refusal) };
  const refusal =
    enumRefusal(body, 'quality', rules.qualities) ??
    enumRefusal(body, 'style', rules.styles) ??
    enumRefusal(body, 'response_format', rules.responseFormats) ??
    enumRefusal(body, 'background', Array.isArray(rules.backgrounds) ? rules.backgrounds : undefined) ??
    (rules.imageOptions ? imageOptionRefusal(body, route) : undefined) ??
    (route === 'generation' && rules.acceptsReferenceImages
      ? referenceImagesRefusal(body['image'])
      : undefined);
  if (refusal) return { error: refusal };
  return {
    job: {
      model,
      rules,
      prompt,
      count,
      ...resolved,
      quality: resolvedQuality(rules, body['quality']),
      responseFormat: body['response_format'] === 'b64_json' || !rules.responseFormats ? 'b64_json' : 'url',
      background: rules.imageOptions ? resolvedBackground(rules, body['background']) : undefined,
      outputFormat: rules.imageOptions
        ? ((body['output_format'] as ImageFormat | undefined) ?? 'png')
        : 'png',
      inputImageCount: Array.isArray(body['image']) ? body['image'].length : 0,
    },
  };
}

function countOf(value: unknown, max: number): number | WireError {
  if (value === undefined || value === null) return 1;
  if (typeof value !== 'number' || !Number.isInteger(value)) return invalidType('n', 'an integer', value);
  if (value < 1) {
    return compatError(
      400,
      `Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${value} instead.`,
      'invalid_request_error',
      'integer_below_min_value',
      'n',
    );
  }
  if (value > max) {
    return compatError(
      400,
      `Invalid 'n': integer above maximum value. Expected a value <= ${max}, but got ${value} instead.`,
      'invalid_request_error',
      'integer_above_max_value',
      'n',
    );
  }
  return value;
}

function imageOptionRefusal(
  body: Record<string, unknown>,
  route: 'generation' | 'edit',
): WireError | undefined {
  const refusal =
    enumRefusal(body, 'output_format', OUTPUT_FORMATS) ??
    enumRefusal(body, 'moderation', MODERATION_LEVELS) ??
    (route === 'edit' ? enumRefusal(body, 'input_fidelity', INPUT_FIDELITIES) : undefined);
  if (refusal) return refusal;
  const compression = body['output_compression'];
  if (compression === undefined || compression === null) return undefined;
  if (typeof compression !== 'number' || !Number.isInteger(compression)) {
    return invalidType('output_compression', 'an integer', compression);
  }
  return compression < 0 || compression > COMPRESSION_MAX
    ? compatInvalidValue(
        'output_compression',
        `Invalid 'output_compression': expected a value between 0 and ${COMPRESSION_MAX}.`,
      )
    : undefined;
}

/** Relay references: an array of Base64 images (a `data:` prefix is tolerated). */
function referenceImagesRefusal(images: unknown): WireError | undefined {
  if (images === undefined || images === null) return undefined;
  if (!Array.isArray(images)) return invalidType('image', 'an array of Base64 images', images);
  for (const [index, image] of images.entries()) {
    const bytes = typeof image === 'string' ? decodeBase64Image(image) : undefined;
    if (!bytes || !inspectImage(bytes)) {
      return compatInvalidValue('image', `Invalid 'image[${index}]': expected a Base64-encoded image.`);
    }
  }
  return undefined;
}

function enumRefusal(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly string[] | undefined,
): WireError | undefined {
  const value = body[field];
  if (allowed === undefined || value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return invalidType(field, 'a string', value);
  return allowed.includes(value)
    ? undefined
    : compatInvalidValue(field, unsupportedValueMessage(value, allowed));
}

function resolvedQuality(rules: CompatImageRules, requested: unknown): string | undefined {
  if (!rules.qualities) return undefined;
  const quality = typeof requested === 'string' ? requested : rules.defaultQuality;
  return quality === 'auto' ? RESOLVED_AUTO_QUALITY : quality;
}

function resolvedBackground(rules: CompatImageRules, requested: unknown): string {
  if (rules.backgrounds === 'ignored' || typeof requested !== 'string' || requested === 'auto') {
    return RESOLVED_AUTO_BACKGROUND;
  }
  return requested;
}

function stringTooLong(param: string, max: number, length: number): WireError {
  return compatError(
    400,
    `Invalid '${param}': string too long. Expected a string with maximum length ${max}, but got a string with length ${length} instead.`,
    'invalid_request_error',
    'string_above_max_length',
    param,
  );
}

function invalidType(param: string, expected: string, value: unknown): WireError {
  const got = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return compatError(
    400,
    `Invalid type for '${param}': expected ${expected}, but got ${got} instead.`,
    'invalid_request_error',
    'invalid_type',
    param,
  );
}
