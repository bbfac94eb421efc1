import type {
  NativeContent,
  NativeFunctionCall,
  NativeFunctionResponse,
  NativeGenerateRequest,
  NativePart,
} from '../native/native-request.types';
import type {
  OpenAiAssistantMessage,
  OpenAiChatMessage,
  OpenAiTextContentPart,
  OpenAiToolCall,
  OpenAiToolMessage,
  OpenAiUserContentPart,
} from '../openai/openai-chat.types';
import { TranslationError } from '../translation-error';

/**
 * The native wire pairs a functionResponse with its functionCall by name (and optional id); the
 * OpenAI-style wire pairs them by tool_call_id. Ids are minted deterministically (`call_<n>`, n
 * counting calls through the conversation) unless the call carries its own id, and each response
 * takes the earliest open call with its id, else with its name.
 */
class ToolCallIdLedger {
  private callCount = 0;
  private readonly openCalls: { id: string; name: string }[] = [];

  open(call: NativeFunctionCall): string {
    const id = call.id ?? `call_${this.callCount}`;
    this.callCount += 1;
    this.openCalls.push({ id, name: call.name });
    return id;
  }

  close(response: NativeFunctionResponse, field: string): string {
    let position =
      response.id === undefined ? -1 : this.openCalls.findIndex((call) => call.id === response.id);
    if (position < 0) position = this.openCalls.findIndex((call) => call.name === response.name);
    if (position < 0) {
      throw new TranslationError(
        field,
        `functionResponse "${response.name}" answers no earlier functionCall`,
      );
    }
    return this.openCalls.splice(position, 1)[0].id;
  }
}

/** systemInstruction first, then the contents in order. Thought parts are dropped everywhere. */
export function toOpenAiChatMessages(native: NativeGenerateRequest): OpenAiChatMessage[] {
  const messages: OpenAiChatMessage[] = [];
  if (native.systemInstruction) {
    const systemMessage = toSystemMessage(native.systemInstruction);
    if (systemMessage) messages.push(systemMessage);
  }
  const toolCallIds = new ToolCallIdLedger();
  native.contents.forEach((content, index) => {
    const path = `contents[${index}]`;
    const role = content.role ?? 'user';
    if (role === 'user') messages.push(...fromUserContent(content, path, toolCallIds));
    else if (role === 'model') messages.push(...fromModelContent(content, path, toolCallIds));
    else throw new TranslationError(`${path}.role`, `role "${String(role)}" is neither user nor model`);
  });
  return messages;
}

function answerParts(content: NativeContent): [NativePart, number][] {
  return (content.parts ?? [])
    .map((part, index): [NativePart, number] => [part, index])
    .filter(([part]) => part.thought !== true);
}

function toSystemMessage(instruction: NativeContent): OpenAiChatMessage | undefined {
  const texts = answerParts(instruction).map(([part, index]) => {
    if (part.text === undefined) {
      throw new TranslationError(
        `systemInstruction.parts[${index}]`,
        'systemInstruction carries text parts only',
      );
    }
    return part.text;
  });
  if (texts.length === 0) return undefined;
  return { role: 'system', content: texts.length === 1 ? texts[0] : texts.map(toTextPart) };
}

function toTextPart(text: string): OpenAiTextContentPart {
  return { type: 'text', text };
}

/**
 * A user turn becomes its tool messages (functionResponse parts) followed by one user message with
 * the remaining parts: the OpenAI-style wire wants tool results right after the assistant turn
 * that asked for them.
 */
function fromUserContent(
  content: NativeContent,
  path: string,
  toolCallIds: ToolCallIdLedger,
): OpenAiChatMessage[] {
  const toolMessages: OpenAiToolMessage[] = [];
  const userParts: OpenAiUserContentPart[] = [];
  for (const [part, index] of answerParts(content)) {
    const partPath = `${path}.parts[${index}]`;
    if (part.functionResponse) {
      toolMessages.push({
        role: 'tool',
        tool_call_id: toolCallIds.close(part.functionResponse, `${partPath}.functionResponse`),
        content: JSON.stringify(part.functionResponse.response ?? {}),
      });
    } else if (part.functionCall) {
      throw new TranslationError(`${partPath}.functionCall`, 'functionCall parts belong to model turns');
    } else {
      const userPart = toUserContentPart(part, partPath);
      if (userPart) userParts.push(userPart);
    }
  }
  if (userParts.length === 0) return toolMessages;
  const [firstPart] = userParts;
  const userContent = userParts.length === 1 && firstPart.type === 'text' ? firstPart.text : userParts;
  return [...toolMessages, { role: 'user', content: userContent }];
}

function toUserContentPart(part: NativePart, partPath: string): OpenAiUserContentPart | undefined {
  if (part.text !== undefined) return toTextPart(part.text);
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    refuseNonImage(mimeType, `${partPath}.inlineData`);
    return { type: 'image_url', image_url: { url: `data:${mimeType};base64,${data}` } };
  }
  if (part.fileData) {
    refuseNonImage(part.fileData.mimeType, `${partPath}.fileData`);
    return { type: 'image_url', image_url: { url: part.fileData.fileUri } };
  }
  return undefined;
}

function refuseNonImage(mimeType: string | undefined, field: string): void {
  if (!mimeType?.startsWith('image/')) {
    throw new TranslationError(
      field,
      `only image data can be sent to an OpenAI-style channel, got mimeType "${mimeType ?? ''}"`,
    );
  }
}

/** A model turn becomes one assistant message: its text parts joined, its functionCall parts as tool_calls. */
function fromModelContent(
  content: NativeContent,
  path: string,
  toolCallIds: ToolCallIdLedger,
): OpenAiChatMessage[] {
  let text = '';
  const toolCalls: OpenAiToolCall[] = [];
  for (const [part, index] of answerParts(content)) {
    const partPath = `${path}.parts[${index}]`;
    if (part.text !== undefined) {
      text += part.text;
    } else if (part.functionCall) {
      toolCalls.push({
        id: toolCallIds.open(part.functionCall),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (part.inlineData || part.fileData || part.functionResponse) {
      const kind = part.inlineData ? 'inlineData' : part.fileData ? 'fileData' : 'functionResponse';
      throw new TranslationError(`${partPath}.${kind}`, `an assistant message cannot carry ${kind}`);
    }
  }
  if (text === '' && toolCalls.length === 0) return [];
  const message: OpenAiAssistantMessage = { role: 'assistant', content: text === '' ? null : text };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return [message];
}
