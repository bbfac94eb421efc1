import { formatResetDelay, rateLimitHeaders } from './rate-limit-headers.util';

describe('formatResetDelay', () => {
  it.each([
    [0, '0ms'],
    [20, '20ms'],
    [999.2, '1s'],
    [1000, '1s'],
    [12_500, '12.5s'],
    [59_999, '59.999s'],
    [60_000, '1m0s'],
    [61_500, '1m1.5s'],
  ])('writes %d ms as %s', (ms, written) => {
    expect(formatResetDelay(ms)).toBe(written);
  });
});

describe('rateLimitHeaders', () => {
  it('writes the trio, never a negative remainder', () => {
    expect(rateLimitHeaders('tokens', { limit: 1000, remaining: -5, resetMs: 1500 })).toEqual({
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1.5s',
    });
  });
});
