import { parseBase64DataUrl, parseJsonObject, type Base64DataUrl } from '@gateway/providers-core';
import type { NativeContent, NativePart } from '../native/native-request.types';
import type {
  OpenAiAssistantMessage,
  OpenAiChatMessage,
  OpenAiSystemMessage,
  OpenAiToolMessage,
  OpenAiUserContentPart,
  OpenAiUserMessage,
} from '../openai/openai-chat.types';
import { TranslationError } from '../translation-error';
import { parseToolCallArguments } from './json-object.util';

export interface NativeConversation {
  systemInstruction?: NativeContent;
  contents: NativeContent[];
}

/** Mutable state of one walk through the messages. */
interface ConversationBuilder {
  systemParts: NativePart[];
  contents: NativeContent[];
  /** Function name of every tool call id seen so far, from the assistant messages. */
  toolCallNames: Map<string, string>;
  /** The last content holds tool results, so that consecutive tool messages share one turn. */
  lastContentIsToolResults: boolean;
  namesDropped: boolean;
}

/**
 * Messages → native contents. System and developer messages, wherever they stand, are gathered in
 * order into systemInstruction. Tool messages become functionResponse parts of a user turn, one
 * turn for a run of consecutive tool messages, as the native wire answers all calls of a turn together.
 */
export function toNativeConversation(messages: OpenAiChatMessage[], warnings: string[]): NativeConversation {
  const builder: ConversationBuilder = {
    systemParts: [],
    contents: [],
    toolCallNames: new Map(),
    lastContentIsToolResults: false,
    namesDropped: false,
  };
  messages.forEach((message, index) => addMessage(builder, message, `messages[${index}]`));
  if (builder.namesDropped)
    warnings.push('messages[].name: dropped; the native wire has no participant names');
  const conversation: NativeConversation = { contents: builder.contents };
  if (builder.systemParts.length > 0) conversation.systemInstruction = { parts: builder.systemParts };
  return conversation;
}

function addMessage(builder: ConversationBuilder, message: OpenAiChatMessage, path: string): void {
  if ('name' in message && message.name !== undefined && message.role !== 'function')
    builder.namesDropped = true;
  switch (message.role) {
    case 'system':
    case 'developer':
      builder.systemParts.push(...textParts(message.content, path));
      return;
    case 'user':
      addContent(builder, { role: 'user', parts: userParts(message, path) }, false);
      return;
    case 'assistant':
      addContent(builder, { role: 'model', parts: assistantParts(builder, message, path) }, false);
      return;
    case 'tool':
      addToolResult(builder, message, path);
      return;
    default:
      throw new TranslationError(
        `${path}.role`,
        `role "${String(message.role)}" is not supported; use tools and tool messages`,
      );
  }
}

function addContent(builder: ConversationBuilder, content: NativeContent, isToolResults: boolean): void {
  if (content.parts.length === 0) return;
  builder.contents.push(content);
  builder.lastContentIsToolResults = isToolResults;
}

function textParts(
  content: OpenAiSystemMessage['content'] | OpenAiToolMessage['content'],
  path: string,
): NativePart[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, index) => {
    if (part.type !== 'text') {
      throw new TranslationError(
        `${path}.content[${index}].type`,
        'only text parts are allowed in this message',
      );
    }
    return { text: part.text };
  });
}

function userParts(message: OpenAiUserMessage, path: string): NativePart[] {
  if (typeof message.content === 'string') return [{ text: message.content }];
  return message.content.map((part, index) => toNativeUserPart(part, `${path}.content[${index}]`));
}

function toNativeUserPart(part: OpenAiUserContentPart, path: string): NativePart {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image_url':
      return imagePartFrom(part.image_url.url, `${path}.image_url.url`);
    case 'input_audio':
      return {
        inlineData: {
          mimeType: part.input_audio.format === 'mp3' ? 'audio/mpeg' : 'audio/wav',
          data: part.input_audio.data,
        },
      };
    case 'file':
      if (part.file.file_data === undefined) {
        throw new TranslationError(
          `${path}.file.file_id`,
          'uploaded file ids cannot be resolved; send file_data',
        );
      }
      return { inlineData: inlineDataFrom(part.file.file_data, `${path}.file.file_data`) };
    default: {
      const unsupported: { type?: unknown } = part;
      throw new TranslationError(
        `${path}.type`,
        `content part type "${String(unsupported.type)}" is not supported`,
      );
    }
  }
}

function inlineDataFrom(dataUrl: string, field: string): Base64DataUrl {
  const inlineData = parseBase64DataUrl(dataUrl);
  if (!inlineData) throw new TranslationError(field, 'expected a base64 data: URL');
  return inlineData;
}

/** A Map, not an object: the extension comes from the client's URL (`a.constructor`). */
const IMAGE_TYPES_BY_EXTENSION: ReadonlyMap<string, string> = new Map([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['webp', 'image/webp'],
  ['gif', 'image/gif'],
  ['heic', 'image/heic'],
  ['heif', 'image/heif'],
]);

/**
 * A data: URL becomes inlineData; an http(s) URL becomes fileData, which the native wire wants
 * with a mimeType: it is read from the path's extension, image/jpeg when there is none.
 */
function imagePartFrom(url: string, field: string): NativePart {
  if (url.startsWith('data:')) return { inlineData: inlineDataFrom(url, field) };
  const pathname = httpUrlPathname(url);
  if (pathname === undefined)
    throw new TranslationError(field, 'image URLs must be http(s) or base64 data: URLs');
  const extension = /\.([a-z0-9]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  return { fileData: { mimeType: IMAGE_TYPES_BY_EXTENSION.get(extension) ?? 'image/jpeg', fileUri: url } };
}

function httpUrlPathname(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.pathname : undefined;
  } catch {
    return undefined;
  }
}

function assistantParts(
  builder: ConversationBuilder,
  message: OpenAiAssistantMessage,
  path: string,
): NativePart[] {
  const parts: NativePart[] = [];
  const text = assistantText(message);
  if (text !== '') parts.push({ text });
  (message.tool_calls ?? []).forEach((toolCall, index) => {
    const args = parseToolCallArguments(toolCall.function.arguments);
    if (!args) {
      throw new TranslationError(
        `${path}.tool_calls[${index}].function.arguments`,
        'tool call arguments must be a JSON object',
      );
    }
    builder.toolCallNames.set(toolCall.id, toolCall.function.name);
    parts.push({ functionCall: { name: toolCall.function.name, args } });
  });
  return parts;
}

/** The text of an assistant turn: its content (text and refusal parts), else its refusal. */
function assistantText(message: OpenAiAssistantMessage): string {
  const { content } = message;
  const text =
    typeof content === 'string'
      ? content
      : (content ?? []).map((part) => (part.type === 'text' ? part.text : part.refusal)).join('');
  return text === '' ? (message.refusal ?? '') : text;
}

/** A JSON object result is the native response as is; any other text is wrapped as `{content: text}`. */
function addToolResult(builder: ConversationBuilder, message: OpenAiToolMessage, path: string): void {
  const name = builder.toolCallNames.get(message.tool_call_id);
  if (name === undefined) {
    throw new TranslationError(
      `${path}.tool_call_id`,
      `"${message.tool_call_id}" matches no earlier assistant tool call`,
    );
  }
  const text = textParts(message.content, path)
    .map((part) => part.text)
    .join('');
  const part: NativePart = {
    functionResponse: { name, response: parseJsonObject(text) ?? { content: text } },
  };
  const lastContent = builder.contents[builder.contents.length - 1];
  if (builder.lastContentIsToolResults && lastContent) lastContent.parts.push(part);
  else addContent(builder, { role: 'user', parts: [part] }, true);
}
