/**
 * A reset delay as OpenAI's API writes it in x-ratelimit-reset-*: a Go-style duration such as `20ms`,
 * `1s`, `12.5s` or `1m0s`.
 */
export function formatResetDelay(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  // Whole milliseconds over 1000: the shortest decimal JavaScript prints has at most 3 places.
  const seconds = (whole % 60_000) / 1000;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

export interface WindowFigures {
  limit: number;
  /** Left in the current minute once this request is counted. */
  remaining: number;
  resetMs: number;
}

type LimitKind = 'requests' | 'tokens';

/** Header names built once: a name computed per request made every answer's header object a slow one. */
const HEADER_NAMES: Readonly<Record<LimitKind, { limit: string; remaining: string; reset: string }>> = {
  requests: {
    limit: 'x-ratelimit-limit-requests',
    remaining: 'x-ratelimit-remaining-requests',
    reset: 'x-ratelimit-reset-requests',
  },
  tokens: {
    limit: 'x-ratelimit-limit-tokens',
    remaining: 'x-ratelimit-remaining-tokens',
    reset: 'x-ratelimit-reset-tokens',
  },
};

/** Writes the x-ratelimit-{limit,remaining,reset}-{requests|tokens} trio into `headers`. */
export function writeRateLimitHeaders(
  headers: Record<string, string>,
  kind: LimitKind,
  figures: WindowFigures,
): void {
  const names = HEADER_NAMES[kind];
  headers[names.limit] = String(figures.limit);
  headers[names.remaining] = String(Math.max(0, figures.remaining));
  headers[names.reset] = formatResetDelay(figures.resetMs);
}
