import type { TimeWindow } from '../usage/usage-window.util';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/**
 * The part `[from, to)` of a window that a rollup answers for: its whole buckets (of `bucketMs`)
 * inside the window, before the rollup's watermark and from its retention floor on (rows before the
 * floor may have been swept). The rest of the window, its partial first and last buckets, everything
 * past the watermark and before the floor, is read elsewhere (the raw rows). Empty (from = to) when
 * the rollup has not run or covers none of the window.
 */
export function rollupCover(
  window: TimeWindow,
  bucketMs: number,
  watermark: Date | null,
  floor: Date | null = null,
): TimeWindow {
  const from = Math.max(
    Math.ceil(window.from.getTime() / bucketMs) * bucketMs,
    floor?.getTime() ?? -Infinity,
  );
  const to = Math.min(
    Math.floor(window.to.getTime() / bucketMs) * bucketMs,
    watermark?.getTime() ?? -Infinity,
  );
  if (to <= from) return { from: window.from, to: window.from };
  return { from: new Date(from), to: new Date(to) };
}
