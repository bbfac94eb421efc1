import { parseBase64DataUrl } from '@gateway/providers-core';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';
import {
  checkBase64,
  checkList,
  checkOneOf,
  checkString,
  isJsonObject,
  problemAt,
} from '../validation/value-checks.util';
import { CHAT_CONTENT_PART_TYPES, IMAGE_DETAILS } from './chat-values.constants';

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

/** OpenAPI shape of `content`: a string or a list of text and image parts. */
export const CHAT_CONTENT_SCHEMA = {
  oneOf: [
    { type: 'string' },
    {
      type: 'array',
      maxItems: TEXT_REQUEST_LIMITS.partsPerItem,
      items: {
        type: 'object',
        required: ['type'],
        properties: {
          type: { type: 'string', enum: [...CHAT_CONTENT_PART_TYPES] },
          text: { type: 'string' },
          image_url: {
            type: 'object',
            required: ['url'],
            properties: { url: { type: 'string' }, detail: { type: 'string', enum: [...IMAGE_DETAILS] } },
          },
        },
      },
    },
  ],
};

/**
 * A data: URL's bytes are checked as the native route checks `inlineData.data`: they reach a native
 * channel as inline data, and a compat channel as sent.
 */
function checkImageLocation(url: unknown): string | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) {
    return checkString(url, { nonEmpty: true, maxLength: TEXT_REQUEST_LIMITS.urlLength });
  }
  // The form the dialect bridge can carry, read as the bridge reads it.
  const dataUrl = parseBase64DataUrl(url);
  if (!dataUrl) return 'must be an http(s) URL or a base64 data: URL (data:<MIME type>;base64,<data>)';
  return checkBase64(dataUrl.data) === undefined
    ? undefined
    : 'must carry Base64-encoded data after ;base64,';
}

function checkImageUrl(imageUrl: unknown): string | undefined {
  if (!isJsonObject(imageUrl)) return imageUrl === undefined ? 'is required' : 'must be an object';
  return (
    problemAt('.url', imageUrl['url'] === undefined ? 'is required' : checkImageLocation(imageUrl['url'])) ??
    (imageUrl['detail'] === undefined
      ? undefined
      : problemAt('.detail', checkOneOf(imageUrl['detail'], IMAGE_DETAILS)))
  );
}

function checkContentPart(part: unknown): string | undefined {
  if (!isJsonObject(part)) return 'must be an object';
  switch (part['type']) {
    case 'text':
      return problemAt('.text', part['text'] === undefined ? 'is required' : checkString(part['text']));
    case 'image_url':
      return problemAt('.image_url', checkImageUrl(part['image_url']));
    default:
      return problemAt('.type', checkOneOf(part['type'], CHAT_CONTENT_PART_TYPES));
  }
}

/**
 * The parts of a `content` list are checked here rather than by nested DTOs: `content` may also be a
 * plain string, which class-validator's nested validation would refuse.
 */
export function checkChatContent(content: unknown): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return 'must be a string or an array of content parts';
  return checkList(content, checkContentPart, { minItems: 1, maxItems: TEXT_REQUEST_LIMITS.partsPerItem });
}
