import { toNativeFinishReason } from '../finish-reason.map';
import { toNativeLogprobsResult } from '../logprobs/logprobs.convert';
import type { NativePart } from '../native/native-request.types';
import type { NativeCandidate, NativeGenerateResponse } from '../native/native-response.types';
import type { OpenAiChatChoice, OpenAiChatResponse } from '../openai/openai-chat.types';
import { nativeUsageFromTokenUsage, tokenUsageFromOpenAi } from '../usage/usage.convert';
import { parseToolCallArguments } from './json-object.util';

export interface OpenAiChatToNativeResponseOptions {
  /** Model id the native client sees in `modelVersion`. */
  modelVersion: string;
}

/** OpenAI-style chat response → native response, for a native client served by an OpenAI-style channel. */
export function toNativeResponse(
  openai: OpenAiChatResponse,
  options: OpenAiChatToNativeResponseOptions,
): NativeGenerateResponse {
  const response: NativeGenerateResponse = { candidates: (openai.choices ?? []).map(toNativeCandidate) };
  if (openai.usage) response.usageMetadata = nativeUsageFromTokenUsage(tokenUsageFromOpenAi(openai.usage));
  response.modelVersion = options.modelVersion;
  response.responseId = openai.id;
  return response;
}

/**
 * The message text (or, when there is none, the refusal text) becomes one text part, each tool
 * call a functionCall part. A call whose arguments are not a JSON object cannot be a native
 * functionCall: it is left out and the candidate ends MALFORMED_FUNCTION_CALL, as a native
 * upstream reports such a call.
 */
function toNativeCandidate(choice: OpenAiChatChoice): NativeCandidate {
  const parts: NativePart[] = [];
  const text = choice.message.content || choice.message.refusal;
  if (text) parts.push({ text });
  let malformedCall = false;
  for (const toolCall of choice.message.tool_calls ?? []) {
    const args = parseToolCallArguments(toolCall.function.arguments);
    if (args) parts.push({ functionCall: { name: toolCall.function.name, args } });
    else malformedCall = true;
  }
  const candidate: NativeCandidate = { content: { role: 'model', parts } };
  const finishReason = malformedCall ? 'MALFORMED_FUNCTION_CALL' : toNativeFinishReason(choice.finish_reason);
  if (finishReason) candidate.finishReason = finishReason;
  candidate.index = choice.index;
  if (choice.logprobs?.content) candidate.logprobsResult = toNativeLogprobsResult(choice.logprobs);
  return candidate;
}
