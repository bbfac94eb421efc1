import { formatResetDelay, writeRateLimitHeaders } from './rate-limit-headers.util';

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

describe('writeRateLimitHeaders', () => {
  it('writes the trio beside what is there, never a negative remainder', () => {
    const headers: Record<string, string> = { 'x-ratelimit-limit-requests': '10' };
    writeRateLimitHeaders(headers, 'tokens', { limit: 1000, remaining: -5, resetMs: 1500 });
    expect(headers).toEqual({
      'x-ratelimit-limit-requests': '10',
      'x-ratelimit-limit-tokens': '1000',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '1.5s',
    });
  });
});
