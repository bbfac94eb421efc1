import { parseBase64DataUrl } from '../base64-data-url.util';

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

/**
 * Whether a video input image is in a form an upstream can take: an http(s) URL the upstream fetches,
 * or a Base64 `data:image/…` URI (how the task row carries uploaded bytes). Anything else (another
 * scheme, a bare Base64 string, a data: URI of another type) is the client's mistake, refused before
 * any money moves.
 */
export function isVideoImageForm(url: string): boolean {
  if (HTTP_URL.test(url)) return true;
  const dataUrl = parseBase64DataUrl(url);
  return dataUrl !== undefined && dataUrl.mimeType.toLowerCase().startsWith('image/') && dataUrl.data !== '';
}
