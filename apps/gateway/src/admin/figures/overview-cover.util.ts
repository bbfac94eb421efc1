import type { OverviewBucket } from '@gateway/contracts';
import type { TimeWindow } from '../usage/usage-window.util';
import { HOUR_MS, MINUTE_MS, rollupCover } from './rollup-cover.util';
import type { RollupWatermarks } from './rollup-watermarks.reader';

/**
 * Where each part of an overview window is read from, the parts never overlapping: whole hours from the
 * series per hour (request_log_series_hours), whole minutes from the minute rollup
 * (request_log_minutes), and the rest (partial minutes, everything past the watermarks) from the raw
 * rows. Empty parts have from = to.
 */
export interface OverviewCover {
  hours: TimeWindow;
  minutes: readonly [TimeWindow, TimeWindow];
  raw: readonly [TimeWindow, TimeWindow, TimeWindow, TimeWindow];
}

const emptyAt = (at: Date): TimeWindow => ({ from: at, to: at });

/** The whole minutes of `edge` from the minute rollup, and the one or two raw parts around them. */
function coverEdge(edge: TimeWindow, marks: RollupWatermarks): [TimeWindow, TimeWindow, TimeWindow] {
  const minutes = rollupCover(edge, MINUTE_MS, marks.minute, marks.minuteFloor);
  if (minutes.from.getTime() === minutes.to.getTime()) return [minutes, edge, emptyAt(edge.to)];
  return [minutes, { from: edge.from, to: minutes.from }, { from: minutes.to, to: edge.to }];
}

/**
 * By hour: the whole hours from the series per hour; when the window starts before the minute rows
 * kept (their retention swept the minutes of its partial first hour), that whole first hour too, so a
 * long chart never falls back to millions of raw rows: its first point is then the whole hour. The
 * partial hours at either end, and the hours past the hour watermark, from minutes and raw rows.
 * By minute: minutes and raw rows only (a minute chart spans at most 48 hours, within the minute
 * retention, which the configuration keeps at two days or more).
 */
export function overviewCover(
  window: TimeWindow,
  bucket: OverviewBucket,
  marks: RollupWatermarks,
): OverviewCover {
  let hours = emptyAt(window.from);
  if (bucket === 'hour') {
    hours = rollupCover(window, HOUR_MS, marks.hour, marks.hourFloor);
    const firstHour = Math.floor(window.from.getTime() / HOUR_MS) * HOUR_MS;
    const minutesSwept = marks.minuteFloor !== null && window.from < marks.minuteFloor;
    const hourKept = marks.hourFloor === null || firstHour >= marks.hourFloor.getTime();
    if (minutesSwept && hourKept && hours.from.getTime() === firstHour + HOUR_MS && hours.to > hours.from) {
      hours = { from: new Date(firstHour), to: hours.to };
    }
  }
  const hoursEmpty = hours.from.getTime() === hours.to.getTime();
  const before = hoursEmpty
    ? window
    : { from: window.from < hours.from ? window.from : hours.from, to: hours.from };
  const after = hoursEmpty ? emptyAt(window.to) : { from: hours.to, to: window.to };
  const [minutesBefore, rawBefore1, rawBefore2] = coverEdge(before, marks);
  const [minutesAfter, rawAfter1, rawAfter2] = coverEdge(after, marks);
  return {
    hours,
    minutes: [minutesBefore, minutesAfter],
    raw: [rawBefore1, rawBefore2, rawAfter1, rawAfter2],
  };
}
