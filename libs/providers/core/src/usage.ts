/** Token usage normalised across wire dialects. Billing prices input and output tokens. */
export interface TokenUsage {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  /** Output tokens billed as output: visible output plus reasoning tokens. */
  outputTokens: number;
  /** Subset of inputTokens served from a cache. */
  cachedInputTokens?: number;
  /** Subset of outputTokens spent on reasoning. */
  reasoningTokens?: number;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });
