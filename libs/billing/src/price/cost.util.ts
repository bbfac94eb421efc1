import type { TokenUsage } from '@gateway/providers-core';
import type { TextHoldPrice, TextPrice } from './price.types';

const TOKENS_PER_PRICE_UNIT = 1_000_000n;

/** Output tokens a hold assumes when neither the request nor the price sets a cap. */
export const FALLBACK_MAX_OUTPUT_TOKENS = 8192;

/**
 * Bytes of request body per token, at least, for the parts a tokenizer counts. Text averages about four
 * bytes per token; the densest ordinary cases (CJK at three UTF-8 bytes per character, short words and
 * punctuation that tokenize alone) stay near two bytes once JSON-escaped, and the body also carries keys,
 * quotes and structure that are not tokens at all. ceil(bytes / 2) therefore bounds the input tokens from
 * above for real prompts; an adversarial prompt that beats it is still billed in full at settlement.
 */
const MIN_BYTES_PER_TOKEN = 2n;

/**
 * Cost of a text call from upstream-reported usage: per-call price plus the token price, rounded up to
 * the next whole micro once for the whole call (never per token, never in floating point).
 */
export function textCostMicros(usage: TokenUsage, price: TextPrice): bigint {
  return tokenCostMicros(
    toWholeCount(usage.inputTokens, 'inputTokens'),
    toWholeCount(usage.outputTokens, 'outputTokens'),
    price,
  );
}

export interface TextHoldRequest {
  /** Size of the request body in bytes. */
  promptBytes: number;
  /** The request's output cap; absent means the price's default, or FALLBACK_MAX_OUTPUT_TOKENS. */
  maxOutputTokens?: number;
  /** Candidates (choices) asked for; each may produce maxOutputTokens. */
  candidateCount?: number;
}

/**
 * An upper bound of a text call's cost, to hold before the call: the input at one token per two bytes,
 * and per candidate the output cap plus the reasoning tokens the price says the model may spend beyond
 * it. Exact in bigint, however large the counts; the caller compares the result with MAX_HOLD_MICROS.
 */
export function estimateTextHoldMicros(request: TextHoldRequest, price: TextHoldPrice): bigint {
  const promptBytes = toWholeCount(request.promptBytes, 'promptBytes');
  const inputTokens = (promptBytes + MIN_BYTES_PER_TOKEN - 1n) / MIN_BYTES_PER_TOKEN;
  const maxOutputTokens = toWholeCount(
    request.maxOutputTokens ?? price.defaultMaxOutputTokens ?? FALLBACK_MAX_OUTPUT_TOKENS,
    'maxOutputTokens',
  );
  const reasoningTokens = toWholeCount(price.maxReasoningTokens ?? 0, 'maxReasoningTokens');
  const candidates = toWholeCount(Math.max(1, request.candidateCount ?? 1), 'candidateCount');
  return tokenCostMicros(inputTokens, (maxOutputTokens + reasoningTokens) * candidates, price);
}

function tokenCostMicros(inputTokens: bigint, outputTokens: bigint, price: TextPrice): bigint {
  const micros = inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion;
  return price.perCall + ceilDivide(micros, TOKENS_PER_PRICE_UNIT);
}

function ceilDivide(dividend: bigint, divisor: bigint): bigint {
  return (dividend + divisor - 1n) / divisor;
}

function toWholeCount(value: number, name: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole, non-negative number, got ${value}`);
  }
  return BigInt(value);
}
