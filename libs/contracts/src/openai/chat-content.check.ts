import { parseBase64DataUrl } from '@gateway/providers-core';
import { type BodyCheckContext, checkForwardedUrlValue } from '../validation/forwarded-url.check';
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
import { nullableOneOf } from '../validation/nullable-one-of.schema';

export interface ChatTextPart {
  type: 'text';
  text: string;
}

export interface ChatImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

/** OpenAPI shape of `content`: a string, a list of text and image parts, or null. */
export const CHAT_CONTENT_SCHEMA = nullableOneOf(
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
);

/**
 * A data: URL's bytes are checked as the native route checks `inlineData.data`: they reach a native
 * channel as inline data, and a compat channel as sent. Any other URL is handed to the upstream,
 * which fetches it: the one forwarded-URL policy (docs/urls.md), here where the part is visited anyway.
 */
function checkImageLocation(url: unknown, context: BodyCheckContext): string | undefined {
  if (typeof url !== 'string' || !url.startsWith('data:')) {
    return (
      checkString(url, { nonEmpty: true, maxLength: TEXT_REQUEST_LIMITS.urlLength }) ??
      checkForwardedUrlValue(url as string, context)
    );
  }
  // The form the dialect bridge can carry, read as the bridge reads it.
  const dataUrl = parseBase64DataUrl(url);
  if (!dataUrl) return 'must be an http(s) URL or a base64 data: URL (data:<MIME type>;base64,<data>)';
  return checkBase64(dataUrl.data) === undefined
    ? undefined
    : 'must carry Base64-encoded data after ;base64,';
}

function checkImageUrl(imageUrl: unknown, context: BodyCheckContext): string | undefined {
  if (!isJsonObject(imageUrl)) return imageUrl === undefined ? 'is required' : 'must be an object';
  const url = imageUrl['url'];
  return (
    problemAt('.url', url === undefined ? 'is required' : checkImageLocation(url, context)) ??
    (imageUrl['detail'] === undefined
      ? undefined
      : problemAt('.detail', checkOneOf(imageUrl['detail'], IMAGE_DETAILS)))
  );
}

function checkContentPart(part: unknown, context: BodyCheckContext): string | undefined {
  if (!isJsonObject(part)) return 'must be an object';
  switch (part['type']) {
    case 'text':
      return problemAt('.text', part['text'] === undefined ? 'is required' : checkString(part['text']));
    case 'image_url':
      return problemAt('.image_url', checkImageUrl(part['image_url'], context));
    default:
      return problemAt('.type', checkOneOf(part['type'], CHAT_CONTENT_PART_TYPES));
  }
}

const CONTENT_PART_LIMITS = { minItems: 1, maxItems: TEXT_REQUEST_LIMITS.partsPerItem };

/**
 * The parts of a `content` list are checked here rather than by nested DTOs: `content` may also be a
 * plain string, which class-validator's nested validation would refuse.
 */
export function checkChatContent(content: unknown, context: BodyCheckContext): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return 'must be a string or an array of content parts';
  return checkList(content, (part) => checkContentPart(part, context), CONTENT_PART_LIMITS);
}
