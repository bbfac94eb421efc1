import { microsToUnitNumber } from '../format/money.util';
import type { OverviewPoint, OverviewSeries } from '../api/admin.types';

export const METRICS = ['requests', 'errors', 'spend', 'latencyP95'] as const;
export type Metric = (typeof METRICS)[number];

export const METRIC_LABELS: Record<Metric, string> = {
  requests: 'Requests',
  errors: 'Errors',
  spend: 'Spend (units)',
  latencyP95: 'p95 latency (ms)',
};

export function metricValue(point: OverviewPoint, metric: Metric): number {
  switch (metric) {
    case 'requests':
      return point.requests;
    case 'errors':
      return point.errors;
    case 'spend':
      return microsToUnitNumber(point.spendMicros);
    case 'latencyP95':
      return point.latencyP95Ms;
  }
}

export type ChartRow = { at: string } & Record<string, number | string>;

/**
 * Several series (one per model or channel) as chart rows keyed by time: one row per bucket that any
 * series has, oldest first. A series without requests in a bucket has no point there (the API leaves
 * empty buckets out), which the chart draws as 0.
 */
export function seriesRows(
  series: readonly OverviewSeries[],
  metric: Metric,
  label: (name: string) => string,
): ChartRow[] {
  const rows = new Map<string, ChartRow>();
  for (const one of series) {
    for (const point of one.points) {
      const row: ChartRow = rows.get(point.at) ?? { at: point.at };
      row[label(one.name)] = metricValue(point, metric);
      rows.set(point.at, row);
    }
  }
  const names = series.map((one) => label(one.name));
  return [...rows.values()]
    .sort((a, b) => a.at.localeCompare(b.at))
    .map((row) => ({ ...Object.fromEntries(names.map((name) => [name, 0])), ...row }));
}

/** The overall points as rows with every metric. */
export function totalRows(points: readonly OverviewPoint[]): ChartRow[] {
  return points.map((point) => ({
    at: point.at,
    requests: point.requests,
    errors: point.errors,
    spend: microsToUnitNumber(point.spendMicros),
    p50: point.latencyP50Ms,
    p95: point.latencyP95Ms,
  }));
}
