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

/**
 * The sums of one point, exact: spend as Postgres wrote it until a second part or a subtraction needs
 * it as a bigint (most points are one rollup row), the latency histogram as counts.
 */
interface PointSums {
  at: string;
  requests: number;
  errors: number;
  spendMicros: string | bigint;
  histogram: number[];
}

/** "0,3,12,…" as counts, without the 35 strings and the array a split and a map would allocate. */
function parseCounts(text: string): number[] {
  const counts: number[] = [];
  let value = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 44) {
      counts.push(value);
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  counts.push(value);
  return counts;
}

type Points = Map<string, PointSums>;

function addInto(points: Points, row: OverviewSqlRow): void {
  const histogram = parseCounts(row.latency_histogram);
  const point = points.get(row.at);
  if (point === undefined) {
    points.set(row.at, {
      at: row.at,
      requests: Number(row.requests),
      errors: Number(row.errors),
      spendMicros: row.spend_micros,
      histogram,
    });
    return;
  }
  point.requests += Number(row.requests);
  point.errors += Number(row.errors);
  point.spendMicros = BigInt(point.spendMicros) + BigInt(row.spend_micros);
  for (const [index, count] of histogram.entries()) point.histogram[index] += count;
}

/** What the overall point holds beyond the top series' points at the same time: the (other) point. */
function remainder(total: PointSums, named: readonly Points[]): PointSums {
  const rest = { ...total, spendMicros: BigInt(total.spendMicros), histogram: [...total.histogram] };
  for (const points of named) {
    const point = points.get(total.at);
    if (point === undefined) continue;
    rest.requests -= point.requests;
    rest.errors -= point.errors;
    rest.spendMicros -= BigInt(point.spendMicros);
    for (const [index, count] of point.histogram.entries()) rest.histogram[index] -= count;
  }
  return rest;
}

/** p50 and p95 are estimated from the point's latency histogram (see latency-histogram.util.ts). */
function toPoint(sums: PointSums): OverviewPoint {
  return {
    at: sums.at,
    requests: sums.requests,
    errors: sums.errors,
    spendMicros: sums.spendMicros.toString(),
    latencyP50Ms: latencyQuantile(sums.histogram, 0.5) ?? 0,
    latencyP95Ms: latencyQuantile(sums.histogram, 0.95) ?? 0,
  };
}

const oldestFirst = (points: Points): OverviewPoint[] =>
  [...points.values()].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).map(toPoint);

/**
 * The top series of one dimension, by requests (then name), and (other) last: for every overall
 * point, what it holds beyond the top series, kept where that is at least one request.
 */
function toSeries(named: Map<string, Points>, total: Points): OverviewSeries[] {
  const requestsOf = (points: Points) => [...points.values()].reduce((sum, point) => sum + point.requests, 0);
  const series = [...named.entries()]
    .map(([name, points]) => ({ name, points, requests: requestsOf(points) }))
    .sort((a, b) => b.requests - a.requests || (a.name < b.name ? -1 : 1))
    .map(({ name, points }) => ({ name, points: oldestFirst(points) }));
  const other: Points = new Map();
  for (const point of total.values()) {
    const rest = remainder(point, [...named.values()]);
    if (rest.requests > 0) other.set(rest.at, rest);
  }
  if (other.size > 0) series.push({ name: OTHER_SERIES, points: oldestFirst(other) });
  return series;
}

export function toOverviewView(
  rows: readonly OverviewSqlRow[],
  window: TimeWindow,
  bucket: OverviewBucket,
): OverviewView {
  const total: Points = new Map();
  const named = { model: new Map<string, Points>(), channel: new Map<string, Points>() };
  for (const row of rows) {
    if (row.series === 'total' || row.name === null) {
      addInto(total, row);
      continue;
    }
    const byName = named[row.series];
    let points = byName.get(row.name);
    if (points === undefined) byName.set(row.name, (points = new Map()));
    addInto(points, row);
  }
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    bucket,
    total: oldestFirst(total),
    byModel: toSeries(named.model, total),
    byChannel: toSeries(named.channel, total),
  };
}
