import type { TokenUsage } from '@gateway/providers-core';
import type { NativeUsageMetadata } from '../native/native-response.types';
import type { OpenAiUsage } from '../openai/openai-chat.types';

/**
 * Native counts (upstreams.md §1.5) normalised. Reasoning tokens are not part of
 * candidatesTokenCount but are billed as output, so they are added. Tool results fed back to the
 * model (`toolUsePromptTokenCount`) are outside promptTokenCount yet are input the model read, and
 * totalTokenCount counts them, so they are added to input.
 */
export function tokenUsageFromNative(usage: NativeUsageMetadata): TokenUsage {
  const reasoningTokens = usage.thoughtsTokenCount ?? 0;
  const tokenUsage: TokenUsage = {
    inputTokens: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage.candidatesTokenCount ?? 0) + reasoningTokens,
  };
  if (usage.cachedContentTokenCount) tokenUsage.cachedInputTokens = usage.cachedContentTokenCount;
  if (reasoningTokens) tokenUsage.reasoningTokens = reasoningTokens;
  return tokenUsage;
}

/** OpenAI-style counts normalised: completion_tokens already include reasoning tokens. */
export function tokenUsageFromOpenAi(usage: OpenAiUsage): TokenUsage {
  const tokenUsage: TokenUsage = {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
  };
  const cachedTokens = usage.prompt_tokens_details?.cached_tokens;
  const reasoningTokens = usage.completion_tokens_details?.reasoning_tokens;
  if (cachedTokens) tokenUsage.cachedInputTokens = cachedTokens;
  if (reasoningTokens) tokenUsage.reasoningTokens = reasoningTokens;
  return tokenUsage;
}

/** Native counts from normalised usage; zero-valued optional counts are absent, as the wire does. */
export function nativeUsageFromTokenUsage(usage: TokenUsage): NativeUsageMetadata {
  const reasoningTokens = usage.reasoningTokens ?? 0;
  const metadata: NativeUsageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - reasoningTokens),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if (usage.cachedInputTokens) metadata.cachedContentTokenCount = usage.cachedInputTokens;
  if (reasoningTokens) metadata.thoughtsTokenCount = reasoningTokens;
  return metadata;
}

/** OpenAI-style counts from normalised usage; the detail objects are always present, as in §2.2. */
export function openAiUsageFromTokenUsage(usage: TokenUsage): OpenAiUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
