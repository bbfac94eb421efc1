import { imageSize } from 'image-size';

export interface InspectedImage {
  /** As image-size names it: `png`, `jpg`, `webp`, `gif`, … */
  type: string;
  width: number;
  height: number;
}

/** The type and dimensions of an uploaded or Base64 image, or undefined when it is not an image. */
export function inspectImage(bytes: Uint8Array): InspectedImage | undefined {
  try {
    const { type, width, height } = imageSize(bytes);
    return type && width && height ? { type, width, height } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The bytes of a Base64 image reference, with or without a `data:image/…;base64,` prefix; undefined
 * when the text is not Base64.
 */
export function decodeBase64Image(text: string): Buffer | undefined {
  const comma = text.startsWith('data:') ? text.indexOf(',') : -1;
  if (text.startsWith('data:') && (comma < 0 || !text.slice(0, comma).endsWith(';base64'))) return undefined;
  const payload = comma >= 0 ? text.slice(comma + 1) : text;
  if (!isBase64(payload)) return undefined;
  return Buffer.from(payload, 'base64');
}

const BASE64_RUN = /^[A-Za-z0-9+/]*$/;
/**
 * Characters one regular expression run reads: a single run over the megabytes of a 20 MB body's image
 * now and then threw "Maximum call stack size exceeded" from inside RegExp#test under a loaded suite.
 * (The gateway's isBase64Text does the same; the simulators depend on none of the gateway's libraries.)
 */
const RUN_CHARACTERS = 64 * 1024;

/** At least one character of the standard Base64 alphabet, then at most two `=`. */
export function isBase64(text: string): boolean {
  const end = text.endsWith('==') ? text.length - 2 : text.endsWith('=') ? text.length - 1 : text.length;
  if (end === 0) return false;
  for (let start = 0; start < end; start += RUN_CHARACTERS) {
    if (!BASE64_RUN.test(text.slice(start, Math.min(end, start + RUN_CHARACTERS)))) return false;
  }
  return true;
}

const IMAGE_DATA_URI_PREFIX = /^data:image\/[\w.+-]+;base64,/;
/** The longest `data:image/<subtype>;base64,` prefix read: the subtype is a short word. */
const PREFIX_CHARACTERS = 128;

/** `data:image/<subtype>;base64,` and Base64 after it. */
export function isImageDataUri(text: string): boolean {
  const prefix = IMAGE_DATA_URI_PREFIX.exec(text.slice(0, PREFIX_CHARACTERS));
  return prefix !== null && isBase64(text.slice(prefix[0].length));
}

const PNG_COLOUR_TYPE_OFFSET = 25;
const PNG_FIRST_CHUNK_OFFSET = 8;
const COLOUR_TYPES_WITH_ALPHA = new Set([4, 6]);

/**
 * Whether a PNG carries transparency: an alpha colour type, or a `tRNS` chunk before the image data.
 * Read from the chunk headers rather than by decoding, so a large mask costs nothing.
 */
export function pngHasAlpha(bytes: Buffer): boolean {
  if (COLOUR_TYPES_WITH_ALPHA.has(bytes[PNG_COLOUR_TYPE_OFFSET])) return true;
  for (let offset = PNG_FIRST_CHUNK_OFFSET; offset + 8 <= bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT') return false;
    offset += 12 + length;
  }
  return false;
}
