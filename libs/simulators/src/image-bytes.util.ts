import { encode as encodeJpeg } from 'jpeg-js';
import { encodeSolidPng } from './png.util';
import { encodeSolidWebp } from './webp.util';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface EncodedImage {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
  bytes: Buffer;
  base64: string;
}

const IMAGE_CONTENT_TYPES: Record<ImageFormat, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

const GREY = 0xb0;
const JPEG_QUALITY = 80;
/** Distinct sizes kept; a 4096² JPEG is the largest entry at about 450 KB. */
const CACHE_CAPACITY = 64;
const cache = new Map<string, EncodedImage>();

/**
 * A real image file of the requested format and size, filled with one grey. Each format and size is
 * encoded once (a 4096² JPEG takes a few hundred milliseconds the first time) and then served from a
 * small cache, so answering a generation costs a map lookup.
 */
export function solidImage(format: ImageFormat, width: number, height: number): EncodedImage {
  const cacheKey = `${format}:${width}x${height}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const bytes = encodeSolid(format, width, height);
  const image = {
    format,
    contentType: IMAGE_CONTENT_TYPES[format],
    width,
    height,
    bytes,
    base64: bytes.toString('base64'),
  };
  if (cache.size >= CACHE_CAPACITY) cache.delete(cache.keys().next().value as string);
  cache.set(cacheKey, image);
  return image;
}

function encodeSolid(format: ImageFormat, width: number, height: number): Buffer {
  switch (format) {
    case 'png':
      return encodeSolidPng(width, height, GREY);
    case 'webp':
      return encodeSolidWebp(width, height, GREY);
    case 'jpeg': {
      const rgba = Buffer.alloc(width * height * 4, GREY);
      return encodeJpeg({ data: rgba, width, height }, JPEG_QUALITY).data;
    }
  }
}
