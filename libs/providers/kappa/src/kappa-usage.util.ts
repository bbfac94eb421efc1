import { countFrom, isJsonObject, type JsonObject, type TokenUsage } from '@gateway/providers-core';

/**
 * usageMetadata (upstreams.md §1.5) normalised. Reasoning tokens are outside candidatesTokenCount but
 * billed as output; tool results fed back to the model are outside promptTokenCount but are input the
 * model read (totalTokenCount counts them), so both are added.
 */
export function tokenUsageFromKappa(usageMetadata: unknown): TokenUsage | undefined {
  if (!isJsonObject(usageMetadata)) return undefined;
  const promptTokens = countFrom(usageMetadata.promptTokenCount) ?? 0;
  const toolUsePromptTokens = countFrom(usageMetadata.toolUsePromptTokenCount) ?? 0;
  const candidatesTokens = countFrom(usageMetadata.candidatesTokenCount) ?? 0;
  const thoughtsTokens = countFrom(usageMetadata.thoughtsTokenCount) ?? 0;
  const cachedTokens = countFrom(usageMetadata.cachedContentTokenCount) ?? 0;
  const usage: TokenUsage = {
    inputTokens: promptTokens + toolUsePromptTokens,
    outputTokens: candidatesTokens + thoughtsTokens,
  };
  if (cachedTokens > 0) usage.cachedInputTokens = cachedTokens;
  if (thoughtsTokens > 0) usage.reasoningTokens = thoughtsTokens;
  return usage;
}

/** The prompt's block reason when the upstream refused the prompt itself: feedback and no candidates. */
export function promptBlockReasonOf(payload: JsonObject): string | undefined {
  const { promptFeedback, candidates } = payload;
  if (!isJsonObject(promptFeedback) || typeof promptFeedback.blockReason !== 'string') return undefined;
  const hasCandidates = Array.isArray(candidates) && candidates.length > 0;
  return hasCandidates ? undefined : promptFeedback.blockReason;
}
