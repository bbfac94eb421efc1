import { VIDEO_REQUEST_LIMITS, checkHttpUrl } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import { decodeBase64, inspectImage, UPLOAD_CONTENT_TYPES } from '@gateway/images';

const DATA_URI = /^data:/i;

/**
 * An input image as the task row keeps it: an http(s) URL as sent (the upstream fetches it, the
 * gateway never does), or the bytes as a `data:<type>;base64,` URI whose type the bytes decide (PNG,
 * JPEG or WebP). Anything else is the client's 400, naming `param`.
 */
export function videoImageUrlOf(value: string, param: string): string {
  if (DATA_URI.test(value)) {
    const bytes = decodeBase64(value);
    if (!bytes) throw GatewayError.invalidRequest(`${param} is a data: URI that is not Base64.`, param);
    return uploadedImageUrl(bytes, param);
  }
  if (checkHttpUrl(value) !== undefined) {
    throw GatewayError.invalidRequest(
      `${param} must be an http(s) URL or a data:image/…;base64, URI.`,
      param,
    );
  }
  if (value.length > VIDEO_REQUEST_LIMITS.urlLength) {
    throw GatewayError.invalidRequest(
      `${param} is longer than ${VIDEO_REQUEST_LIMITS.urlLength} characters.`,
      param,
    );
  }
  return value;
}

/** Uploaded bytes (a multipart file, decoded Base64) as a data: URI, refused unless a PNG, JPEG or WebP. */
export function uploadedImageUrl(bytes: Buffer, param: string): string {
  const image = inspectImage(bytes);
  if (!image || !UPLOAD_CONTENT_TYPES.has(image.contentType)) {
    throw GatewayError.invalidRequest(`${param} is not a PNG, JPEG or WebP image.`, param);
  }
  return `data:${image.contentType};base64,${bytes.toString('base64')}`;
}
