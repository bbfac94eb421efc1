import { toOpenAiFinishReason } from '../finish-reason.map';
import { toOpenAiLogprobs } from '../logprobs/logprobs.convert';
import type { NativeCandidate, NativeGenerateResponse } from '../native/native-response.types';
import type { OpenAiChatChoice, OpenAiChatResponse } from '../openai/openai-chat.types';
import { openAiUsageFromTokenUsage, tokenUsageFromNative } from '../usage/usage.convert';
import { toOpenAiMessagePieces, toOpenAiToolCall } from './native-to-openai-chat.parts';

export interface NativeToOpenAiChatResponseOptions {
  /** Model name the client asked for. */
  model: string;
  /** Response id minted by the gateway (`chatcmpl-…`). */
  id: string;
  /** Unix seconds. */
  created: number;
}

/** Native response → OpenAI-style chat response, for an OpenAI-style client served by a native channel. */
export function toOpenAiChatResponse(
  native: NativeGenerateResponse,
  options: NativeToOpenAiChatResponseOptions,
): OpenAiChatResponse {
  const candidates = native.candidates ?? [];
  const response: OpenAiChatResponse = {
    id: options.id,
    object: 'chat.completion',
    created: options.created,
    model: options.model,
    choices: candidates.length > 0 ? candidates.map(toOpenAiChoice) : [emptyChoice(native)],
  };
  if (native.usageMetadata)
    response.usage = openAiUsageFromTokenUsage(tokenUsageFromNative(native.usageMetadata));
  return response;
}

/** Tool call ids are `call_<n>`, n counting the candidate's calls from 0. */
function toOpenAiChoice(candidate: NativeCandidate, position: number): OpenAiChatChoice {
  const { text, functionCalls } = toOpenAiMessagePieces(candidate.content?.parts ?? []);
  const hasFunctionCalls = functionCalls.length > 0;
  const choice: OpenAiChatChoice = {
    index: candidate.index ?? position,
    message: { role: 'assistant', content: text === '' && hasFunctionCalls ? null : text },
    finish_reason: toOpenAiFinishReason(candidate.finishReason, hasFunctionCalls),
  };
  if (hasFunctionCalls) {
    choice.message.tool_calls = functionCalls.map((call, number) => toOpenAiToolCall(call, `call_${number}`));
  }
  if (candidate.logprobsResult) choice.logprobs = toOpenAiLogprobs(candidate.logprobsResult);
  return choice;
}

/** No candidates: a blocked prompt (promptFeedback.blockReason) reads as a filtered, empty answer. */
function emptyChoice(native: NativeGenerateResponse): OpenAiChatChoice {
  return {
    index: 0,
    message: { role: 'assistant', content: '' },
    finish_reason: native.promptFeedback?.blockReason ? 'content_filter' : 'stop',
  };
}
