import { DEFAULT_USAGE_WINDOW_HOURS, MAX_USAGE_WINDOW_DAYS } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

const HOUR_MS = 3_600_000;

export interface TimeWindow {
  from: Date;
  to: Date;
}

/**
 * The window `[from, to)` of a usage query: a missing `to` is now, a missing `from` is a day before
 * `to`. Bounded so that one query cannot make the database sum years of logs by accident.
 */
export function resolveUsageWindow(range: { from?: string; to?: string }, now: Date): TimeWindow {
  const to = range.to === undefined ? now : new Date(range.to);
  const from =
    range.from === undefined
      ? new Date(to.getTime() - DEFAULT_USAGE_WINDOW_HOURS * HOUR_MS)
      : new Date(range.from);
  if (from.getTime() > to.getTime()) {
    throw GatewayError.invalidRequest('Invalid request: from must not be after to.', 'from');
  }
  if (to.getTime() - from.getTime() > MAX_USAGE_WINDOW_DAYS * 24 * HOUR_MS) {
    throw GatewayError.invalidRequest(
      `Invalid request: the window from from to to must not exceed ${MAX_USAGE_WINDOW_DAYS} days.`,
      'from',
    );
  }
  return { from, to };
}
