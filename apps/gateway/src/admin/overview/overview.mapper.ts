import {
  OTHER_SERIES,
  type OverviewBucket,
  type OverviewPoint,
  type OverviewSeries,
  type OverviewView,
} from '@gateway/contracts';
import { latencyQuantile } from '../figures/latency-histogram.util';
import type { TimeWindow } from '../usage/usage-window.util';
import type { OverviewSqlRow } from './overview-query.sql';

/** p50 and p95 are estimated from the point's latency histogram (see latency-histogram.util.ts). */
function toPoint(row: OverviewSqlRow): OverviewPoint {
  const histogram = row.latency_histogram.split(',').map(Number);
  return {
    at: row.at,
    requests: Number(row.requests),
    errors: Number(row.errors),
    spendMicros: row.spend_micros,
    latencyP50Ms: latencyQuantile(histogram, 0.5) ?? 0,
    latencyP95Ms: latencyQuantile(histogram, 0.95) ?? 0,
  };
}

/** Rows of one kind of series, grouped by name; the top ones by requests first, OTHER_SERIES last. */
function toSeries(rows: readonly OverviewSqlRow[]): OverviewSeries[] {
  const byName = new Map<string, OverviewPoint[]>();
  for (const row of rows) {
    const name = row.name ?? OTHER_SERIES;
    const points = byName.get(name);
    if (points) points.push(toPoint(row));
    else byName.set(name, [toPoint(row)]);
  }
  const total = (points: OverviewPoint[]) => points.reduce((sum, point) => sum + point.requests, 0);
  return [...byName.entries()]
    .map(([name, points]) => ({ name, points }))
    .sort((a, b) =>
      a.name === OTHER_SERIES ? 1 : b.name === OTHER_SERIES ? -1 : total(b.points) - total(a.points),
    );
}

export function toOverviewView(
  rows: readonly OverviewSqlRow[],
  window: TimeWindow,
  bucket: OverviewBucket,
): OverviewView {
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    bucket,
    total: rows.filter((row) => row.series === 'total').map(toPoint),
    byModel: toSeries(rows.filter((row) => row.series === 'model')),
    byChannel: toSeries(rows.filter((row) => row.series === 'channel')),
  };
}
