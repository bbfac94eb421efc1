import { textCostMicros } from '@gateway/billing';
import { toBillableUsage, usageForEndedStream } from './partial-usage.util';

describe('toBillableUsage', () => {
  it('keeps whole counts as they are', () => {
    const usage = { inputTokens: 12, outputTokens: 3_000_000_000, reasoningTokens: 10 };
    expect(toBillableUsage(usage)).toBe(usage);
  });

  it('rounds fractional counts up and bounds huge ones, so that any reported usage can be priced', () => {
    const usage = toBillableUsage({ inputTokens: 1.2, outputTokens: 1e300 });
    expect(usage).toEqual({ inputTokens: 2, outputTokens: Number.MAX_SAFE_INTEGER });
    const price = { inputPerMillion: 1_000_000n, outputPerMillion: 1_000_000n, perCall: 0n };
    expect(textCostMicros(usage, price)).toBe(2n + BigInt(Number.MAX_SAFE_INTEGER));
  });
});

describe('usageForEndedStream', () => {
  it('bills the last reported usage, or what was delivered when none was reported', () => {
    const reported = { inputTokens: 5, outputTokens: 6 };
    expect(usageForEndedStream(reported, 400, 40)).toBe(reported);
    expect(usageForEndedStream(undefined, 401, 41)).toEqual({ inputTokens: 101, outputTokens: 11 });
  });
});
