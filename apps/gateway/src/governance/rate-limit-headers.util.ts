/**
 * A reset delay as OpenAI's API writes it in x-ratelimit-reset-*: a Go-style duration such as `20ms`,
 * `1s`, `12.5s` or `1m0s`.
 */
export function formatResetDelay(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = Number(((whole % 60_000) / 1000).toFixed(3));
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

export interface WindowFigures {
  limit: number;
  /** Left in the current minute once this request is counted. */
  remaining: number;
  resetMs: number;
}

/** The x-ratelimit-{limit,remaining,reset}-{requests|tokens} trio. */
export function rateLimitHeaders(
  kind: 'requests' | 'tokens',
  figures: WindowFigures,
): Record<string, string> {
  return {
    [`x-ratelimit-limit-${kind}`]: String(figures.limit),
    [`x-ratelimit-remaining-${kind}`]: String(Math.max(0, figures.remaining)),
    [`x-ratelimit-reset-${kind}`]: formatResetDelay(figures.resetMs),
  };
}
