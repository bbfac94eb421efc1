import { imageSize } from 'image-size';

/** Media types of the formats an image upstream answers in, by image-size's name for the format. */
const CONTENT_TYPE_BY_FORMAT: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  heif: 'image/heif',
};

/**
 * The media type of image bytes, read from their header (image-size parses headers only), for wires
 * whose Base64 answers do not say it or may say it wrong; undefined when the bytes are no image of a
 * known format. One reader for every adapter, so they all name a format alike.
 */
export function imageContentTypeOf(bytes: Uint8Array): string | undefined {
  try {
    const format = imageSize(bytes).type;
    return format === undefined ? undefined : CONTENT_TYPE_BY_FORMAT[format];
  } catch {
    // image-size throws for bytes it cannot read: not an image of a format it knows.
    return undefined;
  }
}
