import { imageSize } from 'image-size';
import {
  base64PaddingOf,
  isBase64Text,
  matchDataUrlPrefix,
  type ByteStrings,
  type TextRead,
} from '@gateway/providers-core';
import { alphaRefusal, type AlphaRefusal } from './alpha-refusal';

/** §3.3/§3.7 image limits. */
export const ALPHA_IMAGE_MAX_BYTES = 50 * 1024 * 1024;
export const ALPHA_IMAGE_MIN_SIDE = 128;
/** The longer side at most 4 times the shorter one: aspect between 1:4 and 4:1. */
export const ALPHA_IMAGE_MAX_SIDE_RATIO = 4;

/** The `<fmt>` of `data:image/<fmt>;base64,` the wire takes, and the format image-size names for it. */
const FORMAT_OF_SUBTYPE: Readonly<Record<string, string>> = {
  png: 'png',
  jpeg: 'jpg',
  jpg: 'jpg',
  webp: 'webp',
};
const FORMATS_TEXT = 'png, jpeg, jpg, webp';
const DATA_URL_PREFIX = /^data:image\/([a-z0-9.+-]+);base64,/i;
const HTTP_URL = /^https?:\/\//i;
/**
 * Decoded bytes tried, in turn, for the header: PNG and WebP say their size in the first 30 bytes,
 * a JPEG only at its frame header, after any EXIF or colour profile segments. The whole image is
 * decoded only when those sit beyond the first megabyte.
 */
const HEADER_PREFIX_BYTES = [16 * 1024, 1024 * 1024] as const;

/** What an image's header states: its format as image-size names it (`png`, `jpg`, `webp` …) and its size. */
export interface ImageHeader {
  format: string;
  width: number;
  height: number;
}

/**
 * Checks one input image against §3.3: an http(s) URL, or Base64 with its `data:image/<fmt>;base64,`
 * prefix in png, jpeg, jpg or webp, at most 50 MB, at least 128×128 pixels, aspect between 1:4 and
 * 4:1. Format and dimensions are read from the header of the decoded bytes, never by decoding the
 * picture. A URL is not fetched here (the rules run before any channel is chosen and stay pure): the
 * upstream downloads it and applies the same limits, answering `ImageDownloadFailure`,
 * `ImageFormatInvalid` or `FieldInvalid`, which fail the task as a bad request. An image the gateway
 * holds as the bytes of the client's body is read through `byteStrings`.
 */
export function alphaImageRefusal(
  image: unknown,
  param: string,
  byteStrings?: ByteStrings,
): AlphaRefusal | undefined {
  if (typeof image !== 'string') return alphaRefusal(param, `${param} must be a string`);
  const text = byteStrings ? byteStrings.textOf(image) : image;
  const head = text.slice(0, 8);
  if (HTTP_URL.test(head)) return urlRefusal(text.slice(0), param);
  if (!head.slice(0, 5).toLowerCase().startsWith('data:')) {
    return alphaRefusal(
      param,
      `${param} must be an http(s) URL or Base64 with its data:image/<fmt>;base64, prefix (${FORMATS_TEXT})`,
    );
  }
  const prefix = matchDataUrlPrefix(DATA_URL_PREFIX, text);
  if (!prefix) {
    return alphaRefusal(param, `${param} must start with data:image/<fmt>;base64, (${FORMATS_TEXT})`);
  }
  const subtype = prefix[1].toLowerCase();
  const declared = Object.hasOwn(FORMAT_OF_SUBTYPE, subtype) ? FORMAT_OF_SUBTYPE[subtype] : undefined;
  if (!declared) return alphaRefusal(param, `${param} must be ${FORMATS_TEXT}, not ${subtype}`);
  return base64ImageRefusal({ text, start: prefix[0].length }, subtype, declared, param);
}

/**
 * Checks an image header that the caller read itself (the gateway reads the first bytes of a URL
 * image) against §3.3: png, jpeg, jpg or webp, at least 128×128 pixels, aspect between 1:4 and 4:1.
 */
export function alphaImageHeaderRefusal(header: ImageHeader, param: string): AlphaRefusal | undefined {
  if (!Object.values(FORMAT_OF_SUBTYPE).includes(header.format)) {
    return alphaRefusal(param, `${param} must be ${FORMATS_TEXT}, not ${header.format}`);
  }
  return dimensionsRefusal(header, param);
}

function urlRefusal(url: string, param: string): AlphaRefusal | undefined {
  try {
    new URL(url);
    return undefined;
  } catch {
    return alphaRefusal(param, `${param} is not a valid URL`);
  }
}

/** The Base64 part of a `data:` URL: the URL's text from `start`. */
interface Base64Part {
  text: TextRead;
  start: number;
}

function base64ImageRefusal(
  data: Base64Part,
  subtype: string,
  declared: string,
  param: string,
): AlphaRefusal | undefined {
  if ((data.text.length - data.start) % 4 === 1 || !isBase64Text(data.text, data.start)) {
    return alphaRefusal(param, `${param} is not valid Base64 after its data: prefix`);
  }
  if (decodedLength(data) > ALPHA_IMAGE_MAX_BYTES) {
    return alphaRefusal(param, `${param} must be at most 50 MB`, 413);
  }
  const header = headerOf(data);
  if (!header) return alphaRefusal(param, `${param} is not a readable image (${FORMATS_TEXT})`);
  if (!Object.values(FORMAT_OF_SUBTYPE).includes(header.format)) {
    return alphaRefusal(param, `${param} must be ${FORMATS_TEXT}, not ${header.format}`);
  }
  if (header.format !== declared) {
    return alphaRefusal(param, `${param} is declared image/${subtype} but holds a ${header.format} image`);
  }
  return dimensionsRefusal(header, param);
}

function dimensionsRefusal({ width, height }: ImageHeader, param: string): AlphaRefusal | undefined {
  if (width < ALPHA_IMAGE_MIN_SIDE || height < ALPHA_IMAGE_MIN_SIDE) {
    return alphaRefusal(param, `${param} must be at least 128x128 pixels, not ${width}x${height}`);
  }
  const longer = Math.max(width, height);
  const shorter = Math.min(width, height);
  if (longer > shorter * ALPHA_IMAGE_MAX_SIDE_RATIO) {
    return alphaRefusal(
      param,
      `${param} must have an aspect ratio between 1:4 and 4:1, not ${width}x${height}`,
    );
  }
  return undefined;
}

/** The byte length Base64 text decodes to, computed from its length (valid text assumed). */
function decodedLength({ text, start }: Base64Part): number {
  return Math.floor(((text.length - start - base64PaddingOf(text, start)) * 3) / 4);
}

function headerOf({ text, start }: Base64Part): ImageHeader | undefined {
  for (const bytes of HEADER_PREFIX_BYTES) {
    // Whole groups of four characters decode to whole bytes.
    const characters = Math.ceil(bytes / 3) * 4;
    if (start + characters >= text.length) break;
    const header = readHeader(Buffer.from(text.slice(start, start + characters), 'base64'));
    if (header) return header;
  }
  return readHeader(Buffer.from(text.slice(start), 'base64'));
}

function readHeader(bytes: Buffer): ImageHeader | undefined {
  try {
    const { type, width, height } = imageSize(bytes);
    return type && width && height ? { format: type, width, height } : undefined;
  } catch {
    // image-size throws on bytes it cannot read, and on a header cut short by the prefix.
    return undefined;
  }
}
