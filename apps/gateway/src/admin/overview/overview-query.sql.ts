import type { OverviewBucket } from '@gateway/contracts';
import { LATENCY_BOUNDS_SQL, LATENCY_COLUMNS } from '../figures/latency-histogram.util';
import type { OverviewCover } from '../figures/overview-cover.util';
import { UNKNOWN_GROUP } from '../usage/usage-query.sql';
import type { TimeWindow } from '../usage/usage-window.util';

/**
 * One part of one point of the overall series or of a top model's or channel's, as pg reads it (int8
 * as strings): its sums and its latency histogram, the counts of the LATENCY_COLUMNS buckets (l00 …
 * l34) joined by commas. A point read from several sources (a partial hour: its minutes and its raw
 * rows) comes as several rows, summed by the mapper.
 */
export interface OverviewSqlRow {
  series: 'total' | 'model' | 'channel';
  /** The model or channel (UNKNOWN_GROUP when the log row had none); null for total. */
  name: string | null;
  /** ISO 8601 in UTC, written by Postgres: the column has no zone. */
  at: string;
  requests: string;
  errors: string;
  spend_micros: string;
  latency_histogram: string;
}

const histogramColumns = LATENCY_COLUMNS.join(', ');
const histogramOfRaw = LATENCY_COLUMNS.map(
  (column, index) => `count(*) FILTER (WHERE lb = ${index}) AS ${column}`,
).join(', ');

/** Binds values as $1, $2 … in the order they are first used. */
class Parameters {
  readonly values: unknown[] = [];

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** `column` within `[from, to)`, the window's instants read as the columns' UTC timestamps. */
  within(column: string, window: TimeWindow): string {
    const from = this.bind(window.from.toISOString());
    const to = this.bind(window.to.toISOString());
    return `(${column} >= (${from}::timestamptz AT TIME ZONE 'UTC') AND ${column} < (${to}::timestamptz AT TIME ZONE 'UTC'))`;
  }

  /** The conditions on each source of a cover, each a disjunction of its parts. */
  sources(cover: OverviewCover): { hours: string; minutes: string; raw: string } {
    return {
      hours: this.within('bucket', cover.hours),
      minutes: cover.minutes.map((part) => this.within('bucket', part)).join(' OR '),
      raw: cover.raw.map((part) => this.within('created_at', part)).join(' OR '),
    };
  }
}

/**
 * The overall series and the top models' and channels' (ranked by requests over the whole window, so
 * that a series keeps its name from bucket to bucket), in one statement and without sorting or
 * summing the rollups' wide rows: each rollup row of a top series is one point (or one part of one),
 * passed through with its histogram; only the raw rows of the cover's small raw parts are grouped.
 * The rest, (other), is what the overall series holds beyond the top ones: the mapper subtracts, the
 * sums and histograms being additive. The ranking reads the narrow columns of `ranking` (the same
 * window covered by hours wherever it can), the points those of `points`.
 */
export function overviewStatement(
  bucket: OverviewBucket,
  points: OverviewCover,
  ranking: OverviewCover,
  top: number,
): { text: string; values: unknown[] } {
  const parameters = new Parameters();
  const unknown = parameters.bind(UNKNOWN_GROUP);
  const width = parameters.bind(bucket);
  const ranked = parameters.sources(ranking);
  const read = parameters.sources(points);
  // Rows of the series drawn: overall, and the top ones (tested on each rollup's rows before they
  // are read whole, so that the wide rows of the others are never carried).
  const drawn = `(dimension = 'total' OR (dimension, COALESCE(name, ${unknown})) IN (SELECT dimension, name FROM ranked))`;
  const text = `
WITH ranked AS (
  SELECT dimension, name
    FROM (SELECT dimension, name, row_number() OVER (PARTITION BY dimension ORDER BY sum(requests) DESC, name) AS rank
            FROM (SELECT dimension, COALESCE(name, ${unknown}) AS name, requests
                    FROM request_log_series_hours WHERE dimension <> 'total' AND ${ranked.hours}
                  UNION ALL
                  SELECT dimension, COALESCE(name, ${unknown}), requests
                    FROM request_log_minutes WHERE dimension <> 'total' AND (${ranked.minutes})
                  UNION ALL
                  SELECT 'model', COALESCE(model, ${unknown}), 1 FROM request_logs WHERE ${ranked.raw}
                  UNION ALL
                  SELECT 'channel', COALESCE(channel_id, ${unknown}), 1 FROM request_logs WHERE ${ranked.raw}) AS named
           GROUP BY dimension, name) AS totals
   WHERE rank <= ${parameters.bind(top)}
), parts AS (
  SELECT bucket, dimension, name, requests, errors, cost_micros, ${histogramColumns}
    FROM request_log_series_hours WHERE ${read.hours} AND ${drawn}
  UNION ALL
  SELECT bucket, dimension, name, requests, errors, cost_micros, ${histogramColumns}
    FROM request_log_minutes WHERE (${read.minutes}) AND ${drawn}
  UNION ALL
  SELECT bucket,
         CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel_id) = 0 THEN 'channel' ELSE 'total' END,
         CASE WHEN GROUPING(model) = 0 THEN model WHEN GROUPING(channel_id) = 0 THEN channel_id END,
         count(*), count(*) FILTER (WHERE end_reason <> 'completed'), COALESCE(sum(cost_micros), 0), ${histogramOfRaw}
    FROM (SELECT date_trunc('minute', created_at) AS bucket, model, channel_id, end_reason, cost_micros,
                 width_bucket(latency_ms, ${LATENCY_BOUNDS_SQL}) AS lb
            FROM request_logs WHERE ${read.raw}) AS raw
   GROUP BY GROUPING SETS ((bucket), (bucket, model), (bucket, channel_id))
)
SELECT dimension AS series, CASE WHEN dimension = 'total' THEN NULL ELSE COALESCE(name, ${unknown}) END AS name,
       to_char(date_trunc(${width}, bucket), 'YYYY-MM-DD"T"HH24:MI:00.000"Z"') AS at,
       requests::text, errors::text, cost_micros::text AS spend_micros,
       concat_ws(',', ${histogramColumns}) AS latency_histogram
  FROM parts
 WHERE ${drawn}`;
  return { text, values: parameters.values };
}
