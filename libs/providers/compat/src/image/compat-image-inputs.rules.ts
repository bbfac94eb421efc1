import type { ImageInput, ImageRequest } from '@gateway/providers-core';
import { imageSize } from 'image-size';
import type { CompatImageFamily } from './compat-image-families';
import { refusal, type CompatImageRefusal } from './compat-image-refusal';

interface InspectedImage {
  /** As image-size names it: `png`, `jpg`, `webp` … */
  type: string;
  width: number;
  height: number;
}

function inspect(bytes: Buffer): InspectedImage | undefined {
  try {
    const { type, width, height } = imageSize(bytes);
    return type && width && height ? { type, width, height } : undefined;
  } catch {
    return undefined;
  }
}

type ImageBytes = Extract<ImageInput, { kind: 'bytes' }>;

const IMG_EDIT_MAX_IMAGES = 16;
const IMG_EDIT_TYPES: ReadonlySet<string> = new Set(['png', 'jpg', 'webp']);
const DRAW_2_EDIT_MAX_BYTES = 4 * 1024 * 1024;

/** Generations: Base64 references (`image`), only for the families whose wire has them. */
export function referenceImagesRefusal(
  images: ImageInput[],
  family: CompatImageFamily,
): CompatImageRefusal | undefined {
  if (images.length === 0) return undefined;
  if (!family.takesReferenceImages) {
    const hint = family.edits ? ' (use /v1/images/edits)' : '';
    return refusal('image', `${family.name} takes no reference images on generations${hint}`);
  }
  if (images.some((image) => image.kind === 'url')) {
    return refusal('image', `image must be Base64 for ${family.name}: URL references are not supported`);
  }
  const unreadable = (images as ImageBytes[]).findIndex((image) => !inspect(image.bytes));
  return unreadable >= 0 ? refusal('image', `image[${unreadable}] is not an image`) : undefined;
}

/**
 * Edits send files: images the client gave as URLs cannot be uploaded (adapters never download).
 * True for every model on this wire, known or not.
 */
export function editUploadsAsUrlRefusal(request: ImageRequest): CompatImageRefusal | undefined {
  if (request.images.length === 0) return refusal('image', 'image is required for edits');
  if (request.images.some((image) => image.kind === 'url')) {
    return refusal('image', 'image must be an uploaded file for edits');
  }
  return request.mask?.kind === 'url' ? refusal('mask', 'mask must be an uploaded file') : undefined;
}

/**
 * The edit uploads of upstreams.md §2.3, checked here because the bytes are at hand: `img-*` up to 16
 * png/jpeg/webp images, `draw-2` one square PNG under 4 MB; a mask is a PNG of the first image's size
 * (its alpha channel is left to the upstream's own check).
 */
export function editUploadsRefusal(
  request: ImageRequest,
  family: CompatImageFamily,
): CompatImageRefusal | undefined {
  if (!family.edits) return { ...refusal('model', `${family.name} has no edits`), unsupported: true };
  const asUrl = editUploadsAsUrlRefusal(request);
  if (asUrl) return asUrl;
  const images = request.images as ImageBytes[];
  const imagesRefusal =
    family.edits === 'draw-2' ? draw2ImageRefusal(images) : imgImagesRefusal(images, family.name);
  return imagesRefusal ?? maskRefusal(request.mask as ImageBytes | undefined, images[0]);
}

function draw2ImageRefusal(images: ImageBytes[]): CompatImageRefusal | undefined {
  if (images.length > 1) return refusal('image', 'draw-2 edits take exactly one image');
  const [{ bytes }] = images;
  const inspected = inspect(bytes);
  if (inspected?.type !== 'png') return refusal('image', 'image must be a PNG for draw-2 edits');
  if (bytes.length >= DRAW_2_EDIT_MAX_BYTES) {
    return refusal('image', 'image must be smaller than 4 MB for draw-2 edits');
  }
  return inspected.width === inspected.height
    ? undefined
    : refusal('image', 'image must be square for draw-2 edits');
}

function imgImagesRefusal(images: ImageBytes[], family: string): CompatImageRefusal | undefined {
  if (images.length > IMG_EDIT_MAX_IMAGES) {
    return refusal('image', `image takes at most ${IMG_EDIT_MAX_IMAGES} files for ${family}`);
  }
  const unsupported = images.findIndex((image) => !IMG_EDIT_TYPES.has(inspect(image.bytes)?.type ?? ''));
  return unsupported >= 0
    ? refusal('image', `image[${unsupported}] must be png, jpeg or webp for ${family}`)
    : undefined;
}

function maskRefusal(mask: ImageBytes | undefined, firstImage: ImageBytes): CompatImageRefusal | undefined {
  if (!mask) return undefined;
  const inspectedMask = inspect(mask.bytes);
  if (inspectedMask?.type !== 'png') return refusal('mask', 'mask must be a PNG with an alpha channel');
  const image = inspect(firstImage.bytes);
  if (image && (image.width !== inspectedMask.width || image.height !== inspectedMask.height)) {
    return refusal('mask', `mask must be ${image.width}x${image.height}, the size of the (first) image`);
  }
  return undefined;
}
