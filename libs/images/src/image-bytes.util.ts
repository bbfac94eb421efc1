import { imageSize } from 'image-size';
import { isBase64Text, matchDataUrlPrefix } from '@gateway/providers-core';

/** Media types by image-size's name for the format: the formats an upstream may answer in. */
const CONTENT_TYPE_BY_FORMAT: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  heif: 'image/heif',
};

/** What clients may upload or send as Base64: the formats every image upstream takes. */
export const UPLOAD_CONTENT_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

export interface InspectedImage {
  contentType: string;
  width: number;
  height: number;
}

/**
 * The media type and dimensions of image bytes, read from their header (image-size parses headers
 * only, so a large image costs nothing), or undefined when the bytes are no image of a known format.
 * The bytes decide, never the type a client or an upstream claims.
 */
export function inspectImage(bytes: Uint8Array): InspectedImage | undefined {
  try {
    const { type, width, height } = imageSize(bytes);
    const contentType = type === undefined ? undefined : CONTENT_TYPE_BY_FORMAT[type];
    return contentType && width && height ? { contentType, width, height } : undefined;
  } catch {
    // image-size throws for bytes it cannot read: not an image of a format it knows.
    return undefined;
  }
}

const DATA_URL_PREFIX = /^data:[a-z0-9.+/-]*;base64,/i;

/** The bytes of Base64 text, bare or as a `data:…;base64,` URL; undefined when it is not Base64. */
export function decodeBase64(text: string): Buffer | undefined {
  const prefix = matchDataUrlPrefix(DATA_URL_PREFIX, text);
  const payload = prefix ? text.slice(prefix[0].length) : text;
  if (payload.length % 4 === 1 || !isBase64Text(payload)) return undefined;
  return Buffer.from(payload, 'base64');
}
