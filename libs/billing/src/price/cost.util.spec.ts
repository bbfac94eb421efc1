import { estimateTextHoldMicros, FALLBACK_MAX_OUTPUT_TOKENS, textCostMicros } from './cost.util';
import type { TextHoldPrice } from './price.types';

// 3 units per million input tokens, 15 per million output tokens, 0.002 units per call.
const price: TextHoldPrice = { inputPerMillion: 3_000_000n, outputPerMillion: 15_000_000n, perCall: 2_000n };

describe('textCostMicros', () => {
  it('prices input and output tokens exactly', () => {
    // 1000 × 3 + 500 × 15 micros = 10,500 micros, plus 2,000 per call.
    expect(textCostMicros({ inputTokens: 1000, outputTokens: 500 }, price)).toBe(12_500n);
  });

  it('rounds the token part up once per call, not per token', () => {
    const cheap = { inputPerMillion: 1n, outputPerMillion: 1n, perCall: 0n };
    expect(textCostMicros({ inputTokens: 1, outputTokens: 0 }, cheap)).toBe(1n);
    expect(textCostMicros({ inputTokens: 999_999, outputTokens: 1 }, cheap)).toBe(1n);
    expect(textCostMicros({ inputTokens: 1_000_000, outputTokens: 1 }, cheap)).toBe(2n);
    expect(textCostMicros({ inputTokens: 0, outputTokens: 0 }, cheap)).toBe(0n);
  });

  it('charges only the call price for an empty usage', () => {
    expect(textCostMicros({ inputTokens: 0, outputTokens: 0 }, price)).toBe(2_000n);
  });

  it('stays exact far beyond the range of a double', () => {
    const expensive = {
      inputPerMillion: 9_007_199_254_740_993n,
      outputPerMillion: 9_007_199_254_740_993n,
      perCall: 1n,
    };
    const tokens = Number.MAX_SAFE_INTEGER;
    // 2 × (2^53 − 1) × (2^53 + 1) = 2 × (2^106 − 1) micros of tokens, / 10^6 rounded up, plus 1 per call
    // (value computed independently with arbitrary-precision integers).
    expect(textCostMicros({ inputTokens: tokens, outputTokens: tokens }, expensive)).toBe(
      162_259_276_829_213_363_391_578_012n,
    );
  });

  it('ignores the cached and reasoning breakdowns, which are parts of the totals', () => {
    expect(
      textCostMicros(
        { inputTokens: 1000, outputTokens: 500, cachedInputTokens: 900, reasoningTokens: 400 },
        price,
      ),
    ).toBe(12_500n);
  });

  it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])('refuses a token count of %p', (tokens) => {
    expect(() => textCostMicros({ inputTokens: tokens, outputTokens: 0 }, price)).toThrow(RangeError);
  });
});

describe('estimateTextHoldMicros', () => {
  it('assumes one input token per two bytes, rounded up, and the requested output cap', () => {
    // ceil(1001 / 2) = 501 input tokens, 100 output tokens: 1,503 + 1,500 micros + 2,000 per call.
    expect(estimateTextHoldMicros({ promptBytes: 1001, maxOutputTokens: 100 }, price)).toBe(5_003n);
  });

  it('multiplies the output cap by the candidate count', () => {
    const single = estimateTextHoldMicros(
      { promptBytes: 0, maxOutputTokens: 1000, candidateCount: 1 },
      price,
    );
    const four = estimateTextHoldMicros({ promptBytes: 0, maxOutputTokens: 1000, candidateCount: 4 }, price);
    expect(single).toBe(2_000n + 15_000n);
    expect(four).toBe(2_000n + 60_000n);
  });

  it('counts at least one candidate', () => {
    expect(estimateTextHoldMicros({ promptBytes: 0, maxOutputTokens: 1000, candidateCount: 0 }, price)).toBe(
      17_000n,
    );
  });

  it("falls back to the price's default cap, then to the global fallback", () => {
    expect(estimateTextHoldMicros({ promptBytes: 0 }, { ...price, defaultMaxOutputTokens: 2000 })).toBe(
      32_000n,
    );
    expect(estimateTextHoldMicros({ promptBytes: 0 }, price)).toBe(
      2_000n + BigInt(FALLBACK_MAX_OUTPUT_TOKENS) * 15n,
    );
  });

  it('bounds the actual cost of a call that uses what it asked for', () => {
    const hold = estimateTextHoldMicros({ promptBytes: 4000, maxOutputTokens: 300 }, price);
    expect(hold).toBeGreaterThanOrEqual(textCostMicros({ inputTokens: 2000, outputTokens: 300 }, price));
  });

  it('adds the reasoning tokens the price allows beyond the cap to every candidate', () => {
    const reasoning = { ...price, maxReasoningTokens: 500 };
    // (100 + 500) output tokens × 3 candidates × 15 micros, plus 2,000 per call.
    expect(
      estimateTextHoldMicros({ promptBytes: 0, maxOutputTokens: 100, candidateCount: 3 }, reasoning),
    ).toBe(2_000n + 27_000n);
    const hold = estimateTextHoldMicros({ promptBytes: 0, maxOutputTokens: 100 }, reasoning);
    // A call that spent its whole output cap and its whole thinking budget stays within the hold.
    expect(hold).toBeGreaterThanOrEqual(textCostMicros({ inputTokens: 0, outputTokens: 600 }, price));
  });

  it('multiplies huge caps without leaving integers', () => {
    const hold = estimateTextHoldMicros(
      { promptBytes: Number.MAX_SAFE_INTEGER, maxOutputTokens: Number.MAX_SAFE_INTEGER, candidateCount: 8 },
      price,
    );
    const inputTokens = 4_503_599_627_370_496n; // ceil((2^53 − 1) / 2)
    const outputTokens = 9_007_199_254_740_991n * 8n;
    expect(hold).toBe(
      2_000n + (inputTokens * 3_000_000n + outputTokens * 15_000_000n + 999_999n) / 1_000_000n,
    );
  });

  it('refuses a negative prompt size', () => {
    expect(() => estimateTextHoldMicros({ promptBytes: -1 }, price)).toThrow(RangeError);
  });
});
