import { isJsonObject, type TokenUsage } from '@gateway/providers-core';

/**
 * A theta query's `usage` (upstreams.md §6.2: counted in tokens, the billing input) as token usage:
 * `completion_tokens` are the output; whatever `total_tokens` counts beyond them (input clips, where
 * the upstream counts them) the input. Undefined when the answer reports no count.
 */
export function thetaTokenUsageOf(usage: unknown): TokenUsage | undefined {
  if (!isJsonObject(usage)) return undefined;
  const completion = countOf(usage.completion_tokens);
  const total = countOf(usage.total_tokens);
  if (completion === undefined && total === undefined) return undefined;
  const outputTokens = completion ?? total ?? 0;
  return { inputTokens: Math.max(0, (total ?? outputTokens) - outputTokens), outputTokens };
}

function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
