import { STORED_FIELD_LIMITS } from '../validation/stored-field-limits.constants';

/** `response_format` values of the image routes; `base64` is the same as `b64_json`. */
export const IMAGE_RESPONSE_FORMATS = ['url', 'b64_json', 'base64'] as const;

export type ImageResponseFormatValue = (typeof IMAGE_RESPONSE_FORMATS)[number];

/**
 * Per-field limits of the image requests. They bound the gateway's own work (the hold, decoding,
 * uploads held in memory) and sit above what the families accept: each family's rules refuse finer
 * (`n` above its bound, a size it does not offer).
 */
export const IMAGE_REQUEST_LIMITS = Object.freeze({
  /** `n`. */
  images: 100,
  /** Reference images (`image` of a generation, `image`/`image[]` files of an edit). */
  referenceImages: 16,
  /** The one prompt cap of every task route. */
  promptLength: STORED_FIELD_LIMITS.promptLength,
  /** `model`, `size`, `quality`, `style`, `background`, `ratio`, `resolution`. */
  textLength: 256,
  /** A reference image given by URL. */
  urlLength: 8_192,
});

/**
 * Limits of the multipart body of `POST /v1/images/edits`: every file is read into memory, so both the
 * size of one file and of all of them together are bounded (past either: 413).
 */
export const IMAGE_UPLOAD_LIMITS = Object.freeze({
  /** One uploaded image or mask. */
  fileBytes: 20 * 1024 * 1024,
  /** Every file of one request together. */
  totalBytes: 50 * 1024 * 1024,
  /** The images to edit and the mask. */
  files: IMAGE_REQUEST_LIMITS.referenceImages + 1,
  /** Text parts. */
  fields: 32,
  /** One text part (a prompt of 32,000 characters of up to four bytes each fits). */
  fieldBytes: 128 * 1024,
});
