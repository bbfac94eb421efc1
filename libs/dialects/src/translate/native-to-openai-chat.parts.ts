import type { NativeFunctionCall, NativePart } from '../native/native-request.types';
import type { OpenAiToolCall } from '../openai/openai-chat.types';

export interface OpenAiMessagePieces {
  /** Answer text: text parts joined, thought parts left out, images as Markdown. */
  text: string;
  functionCalls: NativeFunctionCall[];
}

/**
 * Splits native output parts into what an assistant message can carry. Thought summaries are
 * reasoning, not answer text, and are left out. An image part (image models) has no place in a
 * chat message, so it is written into the text as a Markdown image (`![image](data:…)` or the
 * file URL), the convention of chat front-ends; other media parts are left out.
 */
export function toOpenAiMessagePieces(parts: NativePart[]): OpenAiMessagePieces {
  let text = '';
  const functionCalls: NativeFunctionCall[] = [];
  for (const part of parts) {
    if (part.thought === true) continue;
    if (part.text !== undefined) text += part.text;
    else if (part.functionCall) functionCalls.push(part.functionCall);
    else if (part.inlineData?.mimeType.startsWith('image/')) {
      text += `![image](data:${part.inlineData.mimeType};base64,${part.inlineData.data})`;
    } else if (part.fileData?.mimeType?.startsWith('image/')) {
      text += `![image](${part.fileData.fileUri})`;
    }
  }
  return { text, functionCalls };
}

/** A native functionCall as an OpenAI-style tool call with the given id; args become JSON text. */
export function toOpenAiToolCall(call: NativeFunctionCall, id: string): OpenAiToolCall {
  return { id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) } };
}
