import { matchDataUrlPrefix } from './base64-text.util';

/** `data:<MIME type>[;parameter…];base64,<data>`, the one data: URL form a native wire takes inline. */
const BASE64_DATA_URL_PREFIX = /^data:([^;,]+)(?:;[^;,]*)*;base64,/;

export interface Base64DataUrl {
  mimeType: string;
  /** The Base64 text after `;base64,`, not decoded: the native wire carries it as sent. */
  data: string;
}

/**
 * The parts of a Base64 data: URL, or undefined for any other form. Validation (libs/contracts) and the
 * dialect bridge both read the URL with this one function, so a body that passed validation translates.
 */
export function parseBase64DataUrl(url: string): Base64DataUrl | undefined {
  const prefix = matchDataUrlPrefix(BASE64_DATA_URL_PREFIX, url);
  return prefix ? { mimeType: prefix[1], data: url.slice(prefix[0].length) } : undefined;
}
