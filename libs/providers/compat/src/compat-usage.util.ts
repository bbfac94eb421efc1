import { countFrom, isJsonObject, type TokenUsage } from '@gateway/providers-core';

/**
 * `usage` of a chat completion or of the final stream chunk (§2.2) normalised; completion_tokens
 * already include reasoning tokens. Chunks without usage carry null or omit it.
 */
export function tokenUsageFromCompat(usage: unknown): TokenUsage | undefined {
  if (!isJsonObject(usage)) return undefined;
  const promptTokens = countFrom(usage.prompt_tokens);
  const completionTokens = countFrom(usage.completion_tokens);
  if (promptTokens === undefined && completionTokens === undefined) return undefined;
  const tokenUsage: TokenUsage = { inputTokens: promptTokens ?? 0, outputTokens: completionTokens ?? 0 };
  const promptDetails = isJsonObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : undefined;
  const completionDetails = isJsonObject(usage.completion_tokens_details)
    ? usage.completion_tokens_details
    : undefined;
  const cachedTokens = countFrom(promptDetails?.cached_tokens) ?? 0;
  const reasoningTokens = countFrom(completionDetails?.reasoning_tokens) ?? 0;
  if (cachedTokens > 0) tokenUsage.cachedInputTokens = cachedTokens;
  if (reasoningTokens > 0) tokenUsage.reasoningTokens = reasoningTokens;
  return tokenUsage;
}
