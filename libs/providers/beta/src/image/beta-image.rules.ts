import type { ImageInput, ImageOperation, ImagePlan, ImageRequest, ImageSize } from '@gateway/providers-core';
import {
  BETA_IMAGE_AREA,
  BETA_RESOLUTION_TIERS,
  BETA_TIER_AREA,
  betaTierOfArea,
  type BetaResolutionTier,
} from '@gateway/dialects';

/** Aspect ratios offered for `beta-*` (interface spec: 21:9 included). */
export const BETA_IMAGE_RATIOS: readonly string[] = [
  '1:1',
  '16:9',
  '9:16',
  '4:3',
  '3:4',
  '3:2',
  '2:3',
  '21:9',
];

const MAX_PROMPT_CHARACTERS = 800;
const MAX_REFERENCE_IMAGES = 10;
/** The wire's bound on an output's aspect ratio, 1:16 to 16:1 (§4.3). */
const MAX_SIDE_RATIO = 16;
/** Sides computed from a ratio are multiples of this, as image models expect. */
const SIDE_STEP = 8;
/** `1024*1024` is the interface spec's form; `1024x1024` is accepted too, as OpenAI-style clients send it. */
const SIZE_FORM = /^(\d{1,5})\s*[*x×]\s*(\d{1,5})$/i;
const HTTP_URL = /^https?:\/\//i;

type Refusal = { ok: false; param: string; message: string };
type Resolved<T> = { ok: true; value: T } | Refusal;

/**
 * The rules of `beta-4.0` and `beta-4.5` (interface spec "Image generation request"; upstreams.md
 * §4.3). They are the wire's, so a model of the type the table does not name follows them too.
 * - `size` is written `1024*1024` and gives the pixels; `ratio` and `resolution` (`1k`, `2k`, `4k`)
 *   give the tier's area at that ratio (2k when only a ratio is given); size wins over both;
 * - `image` is a list of URLs (the wire's `image_urls`), never Base64;
 * - `n` is 1: a task makes one image when it is told to (`force_single`);
 * - the price tier is the resolution tier nearest the output's area;
 * - `quality`, `style` and `background` have no field on this wire: dropped, with a warning.
 */
export function planBetaImage(request: ImageRequest, operation: ImageOperation): ImagePlan {
  const { model } = request;
  if (operation === 'edit') {
    return refuse(
      'model',
      `${model} has no edits; send reference image URLs in image on /v1/images/generations`,
    );
  }
  const n = request.n === undefined || request.n === 0 ? 1 : request.n;
  if (n !== 1) return refuse('n', `n must be 1 for ${model}: the upstream makes one image per task`);
  if (request.prompt.length > MAX_PROMPT_CHARACTERS) {
    return refuse('prompt', `prompt must be at most ${MAX_PROMPT_CHARACTERS} characters for ${model}`);
  }
  const images = referenceImagesOf(request.images, model);
  if (!images.ok) return images;
  if (request.prompt.trim() === '' && images.value.length === 0) {
    return refuse('prompt', `prompt is required for ${model} without reference images`);
  }
  const warnings = ignoredFieldWarnings(request);
  const output = outputSizeOf(request, warnings);
  if (!output.ok) return output;
  const { size, tier } = output.value;
  return {
    ok: true,
    call: {
      prompt: request.prompt,
      n,
      ...(size ? { size } : {}),
      ...(request.ratio !== undefined && request.size === undefined ? { aspectRatio: request.ratio } : {}),
      ...(request.watermark !== undefined ? { watermark: request.watermark } : {}),
      responseFormat: request.responseFormat,
      images: images.value,
    },
    priceTier: { size: tier },
    warnings,
  };
}

function refuse(param: string, message: string): Refusal {
  return { ok: false, param, message };
}

function referenceImagesOf(images: readonly ImageInput[], model: string): Resolved<ImageInput[]> {
  if (images.some((image) => image.kind !== 'url' || !HTTP_URL.test(image.url))) {
    return refuse(
      'image',
      `image must be a list of http(s) URLs for ${model}; Base64 images are not accepted`,
    );
  }
  if (images.length > MAX_REFERENCE_IMAGES) {
    return refuse('image', `image takes at most ${MAX_REFERENCE_IMAGES} URLs for ${model}`);
  }
  return { ok: true, value: [...images] };
}

function ignoredFieldWarnings(request: ImageRequest): string[] {
  const ignored = (['quality', 'style', 'background'] as const).filter(
    (field) => request[field] !== undefined,
  );
  return ignored.map((field) => `${field} is ignored: ${request.model} has no such option`);
}

interface OutputSize {
  /** Undefined: the wire's default area (2048², tier 2k). */
  size?: ImageSize;
  tier: BetaResolutionTier;
}

function outputSizeOf(request: ImageRequest, warnings: string[]): Resolved<OutputSize> {
  const { model, ratio } = request;
  const resolution = request.resolution?.toLowerCase();
  if (ratio !== undefined && !BETA_IMAGE_RATIOS.includes(ratio)) {
    return refuse('ratio', `ratio must be one of ${BETA_IMAGE_RATIOS.join(', ')} for ${model}`);
  }
  if (resolution !== undefined && !(BETA_RESOLUTION_TIERS as readonly string[]).includes(resolution)) {
    return refuse('resolution', `resolution must be one of ${BETA_RESOLUTION_TIERS.join(', ')} for ${model}`);
  }
  if (request.size !== undefined) {
    if (ratio !== undefined || resolution !== undefined) {
      warnings.push('ratio and resolution are ignored: size gives the output dimensions');
    }
    return pixelsOfSize(request.size, model);
  }
  const tier = (resolution as BetaResolutionTier | undefined) ?? (ratio !== undefined ? '2k' : undefined);
  if (tier === undefined) return { ok: true, value: { tier: betaTierOfArea(BETA_IMAGE_AREA.default) } };
  if (ratio === undefined) return { ok: true, value: { size: { kind: 'tier', tier }, tier } };
  const { width, height } = sidesAt(BETA_TIER_AREA[tier], ratio);
  return { ok: true, value: { size: { kind: 'pixels', width, height }, tier } };
}

function pixelsOfSize(size: string, model: string): Resolved<OutputSize> {
  const match = SIZE_FORM.exec(size.trim());
  if (!match) return refuse('size', `size must be written WIDTH*HEIGHT (for example 1024*1024) for ${model}`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  const area = width * height;
  if (width === 0 || height === 0 || area < BETA_IMAGE_AREA.min || area > BETA_IMAGE_AREA.max) {
    return refuse('size', `size must have an area between 1024*1024 and 4096*4096 pixels for ${model}`);
  }
  if (width > height * MAX_SIDE_RATIO || height > width * MAX_SIDE_RATIO) {
    return refuse('size', `size must have an aspect ratio between 1:16 and 16:1 for ${model}`);
  }
  return { ok: true, value: { size: { kind: 'pixels', width, height }, tier: betaTierOfArea(area) } };
}

/**
 * The sides of `area` pixels at `ratio`, each a multiple of 8: rounded down, so that 4k stays within
 * the wire's largest area, unless that falls below its smallest (then rounded up).
 */
export function sidesAt(area: number, ratio: string): { width: number; height: number } {
  const [ratioWidth, ratioHeight] = ratio.split(':').map(Number);
  const exactWidth = Math.sqrt((area * ratioWidth) / ratioHeight);
  const exactHeight = area / exactWidth;
  const down = (side: number) => Math.floor(side / SIDE_STEP) * SIDE_STEP;
  const up = (side: number) => Math.ceil(side / SIDE_STEP) * SIDE_STEP;
  const width = down(exactWidth);
  const height = down(exactHeight);
  if (width * height >= BETA_IMAGE_AREA.min) return { width, height };
  return { width: up(exactWidth), height: up(exactHeight) };
}
