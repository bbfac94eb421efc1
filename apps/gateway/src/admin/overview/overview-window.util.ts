import { MAX_OVERVIEW_WINDOW_HOURS, type OverviewBucket } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { TimeWindow } from '../usage/usage-window.util';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The window that ends now, from a checked `window` value (`24h`). Too long a window for the bucket is
 * the operator's 400: a minute chart of a month would be 40,000 points per series.
 */
export function resolveOverviewWindow(window: string, bucket: OverviewBucket, now: Date): TimeWindow {
  const length = Number(window.slice(0, -1)) * (UNIT_MS[window.slice(-1)] ?? Number.NaN);
  const maxHours = MAX_OVERVIEW_WINDOW_HOURS[bucket];
  if (!(length <= maxHours * UNIT_MS['h'])) {
    throw GatewayError.invalidRequest(
      `Invalid request: window must not exceed ${maxHours}h when bucket is ${bucket}.`,
      'window',
    );
  }
  return { from: new Date(now.getTime() - length), to: now };
}
