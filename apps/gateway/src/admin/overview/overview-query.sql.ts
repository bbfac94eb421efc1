import { OTHER_SERIES, type OverviewBucket } from '@gateway/contracts';
import { LATENCY_BOUNDS_SQL, LATENCY_COLUMNS } from '../figures/latency-histogram.util';
import { UNKNOWN_GROUP } from '../usage/usage-query.sql';
import type { TimeWindow } from '../usage/usage-window.util';

/**
 * One point of one series, as pg reads it (int8 as strings): its sums and its latency histogram, the
 * counts of the LATENCY_COLUMNS buckets (l00 … l34) joined by commas.
 */
export interface OverviewSqlRow {
  series: 'total' | 'model' | 'channel';
  name: string | null;
  /** ISO 8601 in UTC, written by Postgres: the column has no zone. */
  at: string;
  requests: string;
  errors: string;
  spend_micros: string;
  latency_histogram: string;
}

const histogramOfRaw = LATENCY_COLUMNS.map(
  (column, index) => `count(*) FILTER (WHERE lb = ${index}) AS ${column}`,
).join(', ');
const histogramColumns = LATENCY_COLUMNS.join(', ');
// One text field per point instead of 35: pg parses every field it reads, and a minute chart of a day
// has 18,000 points.
const histogramSums = `concat_ws(',', ${LATENCY_COLUMNS.map((column) => `sum(n.${column})`).join(', ')}) AS latency_histogram`;

/**
 * Every series in one statement: the minute rollup's rows (each minute overall, per model and per
 * channel) for the whole minutes of `cover`, and the raw rows of the rest of the window summed the
 * same way (bucketed into the same latency histogram); then each series per bucket. The top models
 * and channels are ranked by requests over the whole window, so a series keeps its name from bucket to
 * bucket; the others are summed as OTHER_SERIES. `bucket` is one of a fixed set, and is bound like
 * every other value.
 */
export function overviewStatement(
  bucket: OverviewBucket,
  window: TimeWindow,
  cover: TimeWindow,
  top: number,
): { text: string; values: unknown[] } {
  const raw = `(created_at >= ($3::timestamptz AT TIME ZONE 'UTC') AND created_at < ($5::timestamptz AT TIME ZONE 'UTC'))
              OR (created_at >= ($6::timestamptz AT TIME ZONE 'UTC') AND created_at < ($4::timestamptz AT TIME ZONE 'UTC'))`;
  const covered = `bucket >= ($5::timestamptz AT TIME ZONE 'UTC') AND bucket < ($6::timestamptz AT TIME ZONE 'UTC')`;
  // The ranking reads narrow columns only, so that the wide rows below are read once, never materialised.
  const text = `
WITH ranked AS (
  SELECT dimension, name
    FROM (SELECT dimension, name, row_number() OVER (PARTITION BY dimension ORDER BY sum(requests) DESC, name) AS rank
            FROM (SELECT dimension, COALESCE(name, $2) AS name, requests
                    FROM request_log_minutes WHERE dimension <> 'total' AND ${covered}
                  UNION ALL
                  SELECT 'model', COALESCE(model, $2), 1 FROM request_logs WHERE ${raw}
                  UNION ALL
                  SELECT 'channel', COALESCE(channel_id, $2), 1 FROM request_logs WHERE ${raw}) AS named
           GROUP BY dimension, name) AS totals
   WHERE rank <= $7
), parts AS (
  SELECT date_trunc($1, minute) AS at,
         CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel_id) = 0 THEN 'channel' ELSE 'total' END
           AS dimension,
         CASE WHEN GROUPING(model) = 0 THEN model WHEN GROUPING(channel_id) = 0 THEN channel_id END AS name,
         count(*) AS requests, count(*) FILTER (WHERE end_reason <> 'completed') AS errors,
         COALESCE(sum(cost_micros), 0) AS cost_micros, ${histogramOfRaw}
    FROM (SELECT date_trunc('minute', created_at) AS minute, model, channel_id, end_reason, cost_micros,
                 width_bucket(latency_ms, ${LATENCY_BOUNDS_SQL}) AS lb
            FROM request_logs WHERE ${raw}) AS raw
   GROUP BY GROUPING SETS ((minute), (minute, model), (minute, channel_id))
  UNION ALL
  SELECT date_trunc($1, bucket), dimension, name, requests, errors, cost_micros, ${histogramColumns}
    FROM request_log_minutes WHERE ${covered}
), summed AS (
  SELECT n.dimension AS series,
         CASE WHEN n.dimension = 'total' THEN NULL WHEN r.name IS NOT NULL THEN r.name ELSE $8 END AS name,
         n.at, sum(n.requests)::int8 AS requests, sum(n.errors)::int8 AS errors,
         sum(n.cost_micros)::text AS spend_micros, ${histogramSums}
    FROM parts n
    LEFT JOIN ranked r ON r.dimension = n.dimension AND r.name = COALESCE(n.name, $2)
   GROUP BY 1, 2, 3
)
SELECT series, name, to_char(at, 'YYYY-MM-DD"T"HH24:MI:00.000"Z"') AS at, requests, errors, spend_micros,
       latency_histogram
  FROM summed
 ORDER BY 1, 2, summed.at`;
  return {
    text,
    values: [
      bucket,
      UNKNOWN_GROUP,
      window.from.toISOString(),
      window.to.toISOString(),
      cover.from.toISOString(),
      cover.to.toISOString(),
      top,
      OTHER_SERIES,
    ],
  };
}
