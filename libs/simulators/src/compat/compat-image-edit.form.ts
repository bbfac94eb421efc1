import { MultipartForm, UploadedFile } from '../multipart-form.util';
import { WireError } from '../scripted-error';
import { inspectImage, pngHasAlpha } from '../uploaded-image.util';
import { compatInvalidValue, compatMissingParameter } from './compat-errors';
import { CompatImageRules } from './compat-image-models';

const IMAGE_FIELDS = new Set(['image', 'image[]']);
const MASK_FIELD = 'mask';
const NUMERIC_FIELDS = ['n', 'output_compression'];
const INTEGER_TEXT = /^-?\d+$/;
const IMG_MAX_IMAGES = 16;
const IMG_IMAGE_TYPES = new Set(['png', 'jpg', 'webp']);
const DRAW_2_MAX_BYTES = 4 * 1024 * 1024;

/** The text parts as a JSON-like body: integer fields become numbers, as the JSON route has them. */
export function toEditBody(form: MultipartForm): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    const single = Array.isArray(value) ? value[value.length - 1] : value;
    body[name] = NUMERIC_FIELDS.includes(name) && INTEGER_TEXT.test(single) ? Number(single) : single;
  }
  return body;
}

/**
 * The edit uploads of §2.3: `img-*` take `image` or repeated `image[]` (up to 16 png/jpeg/webp),
 * `draw-2` one square PNG under 4 MB; an optional `mask` is a PNG with alpha of the first image's
 * size. Resolves to the number of input images, or the refusal.
 */
export function checkEditUploads(rules: CompatImageRules, files: UploadedFile[]): number | WireError {
  const images = files.filter((file) => IMAGE_FIELDS.has(file.field));
  if (images.length === 0) return compatMissingParameter('image');
  const imageRefusal = rules.edits === 'draw-2' ? draw2ImageRefusal(images) : imgImagesRefusal(images);
  if (imageRefusal) return imageRefusal;
  const mask = files.find((file) => file.field === MASK_FIELD);
  const maskRefusal = mask ? maskRefusalOf(mask, images[0]) : undefined;
  return maskRefusal ?? images.length;
}

function imgImagesRefusal(images: UploadedFile[]): WireError | undefined {
  if (images.length > IMG_MAX_IMAGES) {
    return compatInvalidValue(
      'image',
      `Invalid 'image': expected at most ${IMG_MAX_IMAGES} images, got ${images.length}.`,
    );
  }
  for (const image of images) {
    const inspected = inspectImage(image.bytes);
    if (!inspected || !IMG_IMAGE_TYPES.has(inspected.type)) {
      return compatInvalidValue(
        'image',
        `Invalid file '${image.filename}': unsupported image format. Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.`,
      );
    }
  }
  return undefined;
}

function draw2ImageRefusal(images: UploadedFile[]): WireError | undefined {
  if (images.length > 1)
    return compatInvalidValue('image', "Invalid 'image': this model takes exactly one image.");
  const [image] = images;
  const inspected = inspectImage(image.bytes);
  if (inspected?.type !== 'png')
    return compatInvalidValue('image', 'Invalid input image - format must be PNG.');
  if (image.bytes.length >= DRAW_2_MAX_BYTES) {
    return compatInvalidValue('image', 'Invalid input image - image must be less than 4 MB.');
  }
  if (inspected.width !== inspected.height) {
    return compatInvalidValue('image', 'Invalid input image - image must be square.');
  }
  return undefined;
}

function maskRefusalOf(mask: UploadedFile, firstImage: UploadedFile): WireError | undefined {
  const inspected = inspectImage(mask.bytes);
  if (inspected?.type !== 'png' || !pngHasAlpha(mask.bytes)) {
    return compatInvalidValue('mask', 'Invalid mask - format must be PNG with an alpha channel.');
  }
  const image = inspectImage(firstImage.bytes);
  if (!image || image.width !== inspected.width || image.height !== inspected.height) {
    return compatInvalidValue('mask', 'Invalid mask - mask and image must have the same dimensions.');
  }
  return undefined;
}
