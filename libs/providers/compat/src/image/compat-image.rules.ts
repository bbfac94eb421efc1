import type { ImageOperation, ImagePlan, ImageRequest, ImageRules } from '@gateway/providers-core';
import { compatImageFamilyOf, type CompatImageFamily } from './compat-image-families';
import {
  editUploadsAsUrlRefusal,
  editUploadsRefusal,
  referenceImagesRefusal,
} from './compat-image-inputs.rules';
import { compatImagePriceTier } from './compat-image-price-tier.util';
import { refusal, type CompatImageRefusal } from './compat-image-refusal';
import { decideCompatSize, sizeAsSent } from './compat-image-size.rules';

type PlannedCall = Extract<ImagePlan, { ok: true }>['call'];

/**
 * The family rules of the OpenAI-style image wire (upstreams.md §2.3, interface spec "Image generation
 * request"), keyed by the public model name: `img-1`, `img-2`, `img-2-pro`, `draw-2`, `draw-3`,
 * `zeta-4-2-image`. Any other model passes as sent.
 */
export const compatImageRules: ImageRules = {
  plan(request, operation) {
    const family = compatImageFamilyOf(request.model);
    return family ? planFamilyCall(request, operation, family) : planAsSent(request, operation);
  },
};

function planFamilyCall(
  request: ImageRequest,
  operation: ImageOperation,
  family: CompatImageFamily,
): ImagePlan {
  const n = countOf(request.n);
  const early =
    (operation === 'edit'
      ? editUploadsRefusal(request, family)
      : referenceImagesRefusal(request.images, family)) ??
    countRefusal(n, family) ??
    (request.prompt.trim() === '' ? refusal('prompt', 'prompt is required') : undefined) ??
    qualityRefusal(request.quality, family);
  if (early) return early;
  const size = decideCompatSize(request, family);
  if (!size.ok) return size;
  const prompt = request.prompt + (size.promptNote ?? '');
  const promptTooLong = promptLengthRefusal(request.prompt, size.promptNote, family);
  if (promptTooLong) return promptTooLong;
  const optional = optionalFieldsOf(request, family);
  const call: PlannedCall = {
    family: family.name,
    prompt,
    n,
    ...(size.size && { size: size.size }),
    ...optional.fields,
    responseFormat: request.responseFormat,
    images: request.images,
    ...(operation === 'edit' && request.mask && { mask: request.mask }),
  };
  const warnings = [...size.warnings, ...optional.warnings, ...wireLessFieldWarnings(request, family.name)];
  return { ok: true, call, priceTier: compatImagePriceTier(call), warnings };
}

/** A model without rules: what the client sent, with only the wire's own constraints applied. */
function planAsSent(request: ImageRequest, operation: ImageOperation): ImagePlan {
  const n = countOf(request.n);
  const early =
    (Number.isInteger(n) && n >= 1 ? undefined : refusal('n', 'n must be a positive integer')) ??
    (operation === 'edit' ? editUploadsAsUrlRefusal(request) : undefined);
  if (early) return early;
  const size = sizeAsSent(request.size);
  const call: PlannedCall = {
    prompt: request.prompt,
    n,
    ...(size && { size }),
    ...definedFields(request),
    responseFormat: request.responseFormat,
    images: request.images,
    ...(operation === 'edit' && request.mask && { mask: request.mask }),
  };
  const warnings = [...wireLessFieldWarnings(request, request.model)];
  if (request.ratio !== undefined) warnings.push(`ratio is not a field of ${request.model} and was dropped`);
  return { ok: true, call, priceTier: compatImagePriceTier(call), warnings };
}

/** `n` omitted or 0 means 1 (interface spec). */
const countOf = (n: number | undefined): number => (n === undefined || n === 0 ? 1 : n);

function countRefusal(n: number, family: CompatImageFamily): CompatImageRefusal | undefined {
  const { maxImages, name } = family;
  if (Number.isInteger(n) && n >= 1 && (maxImages === undefined || n <= maxImages)) return undefined;
  if (maxImages === undefined) return refusal('n', `n must be a positive integer for ${name}`);
  return refusal(
    'n',
    maxImages === 1 ? `n must be 1 for ${name}` : `n must be between 1 and ${maxImages} for ${name}`,
  );
}

function qualityRefusal(
  quality: string | undefined,
  family: CompatImageFamily,
): CompatImageRefusal | undefined {
  if (quality === undefined || !family.qualities || family.qualities.includes(quality)) return undefined;
  return refusal('quality', `quality must be one of ${family.qualities.join(', ')} for ${family.name}`);
}

function promptLengthRefusal(
  prompt: string,
  note: string | undefined,
  family: CompatImageFamily,
): CompatImageRefusal | undefined {
  const max = family.promptMaxLength;
  if (max === undefined || prompt.length + (note?.length ?? 0) <= max) return undefined;
  if (prompt.length > max)
    return refusal('prompt', `prompt must be at most ${max} characters for ${family.name}`);
  return refusal(
    'prompt',
    `prompt must be at most ${max - (note?.length ?? 0)} characters for ${family.name} with this size: the size falls back and the prompt gets "${note?.trim()}"`,
  );
}

interface OptionalFields {
  fields: Pick<PlannedCall, 'quality' | 'style' | 'background'>;
  warnings: string[];
}

/**
 * `quality` (with the family's default), `style` and `background` go to the families whose wire has
 * them, unchanged; elsewhere they are dropped and the client is told.
 */
function optionalFieldsOf(request: ImageRequest, family: CompatImageFamily): OptionalFields {
  const requested = { ...definedFields(request), quality: request.quality ?? family.defaultQuality };
  const optional: OptionalFields = { fields: {}, warnings: [] };
  for (const field of ['quality', 'style', 'background'] as const) {
    const value = requested[field];
    if (value === undefined) continue;
    if (family.fields.has(field)) optional.fields[field] = value;
    else optional.warnings.push(`${field} is not a field of ${family.name} and was dropped`);
  }
  return optional;
}

function definedFields(request: ImageRequest): Pick<PlannedCall, 'quality' | 'style' | 'background'> {
  const fields: Pick<PlannedCall, 'quality' | 'style' | 'background'> = {};
  if (request.quality !== undefined) fields.quality = request.quality;
  if (request.style !== undefined) fields.style = request.style;
  if (request.background !== undefined) fields.background = request.background;
  return fields;
}

/** Fields no compat image wire has: nothing is sent for them, and a client that set them is told. */
function wireLessFieldWarnings(request: ImageRequest, model: string): string[] {
  const warnings: string[] = [];
  if (request.watermark === false) {
    warnings.push(`watermark: ${model} has no watermark setting on its wire; nothing was sent`);
  }
  if (request.resolution !== undefined)
    warnings.push(`resolution is not a field of ${model} and was dropped`);
  return warnings;
}
