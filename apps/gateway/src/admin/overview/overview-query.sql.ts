import { OTHER_SERIES, type OverviewBucket } from '@gateway/contracts';
import { UNKNOWN_GROUP } from '../usage/usage-query.sql';
import type { TimeWindow } from '../usage/usage-window.util';

/** One point of one series, as pg reads it (int8 as strings; percentiles as doubles). */
export interface OverviewSqlRow {
  series: 'total' | 'model' | 'channel';
  name: string | null;
  /** ISO 8601 in UTC, written by Postgres: the column has no zone. */
  at: string;
  requests: string;
  errors: string;
  spend_micros: string;
  latency_p50_ms: number;
  latency_p95_ms: number;
}

/**
 * Every series in one pass over the window's rows: GROUPING SETS sums the buckets overall, per model and
 * per channel at once. The top models and channels are ranked by requests over the whole window, so a
 * series keeps its name from bucket to bucket; the others are summed as OTHER_SERIES. `bucket` is one
 * of a fixed set, and is bound like every other value.
 */
export function overviewStatement(
  bucket: OverviewBucket,
  window: TimeWindow,
  top: number,
): { text: string; values: unknown[] } {
  const text = `
WITH w AS (
  SELECT date_trunc($1, created_at) AS at, COALESCE(model, $2) AS model, COALESCE(channel_id, $2) AS channel,
         end_reason <> 'completed' AS failed, latency_ms, cost_micros
    FROM request_logs
   WHERE created_at >= ($3::timestamptz AT TIME ZONE 'UTC') AND created_at < ($4::timestamptz AT TIME ZONE 'UTC')
), top_models AS (
  SELECT model FROM w GROUP BY model ORDER BY count(*) DESC, model LIMIT $5
), top_channels AS (
  SELECT channel FROM w GROUP BY channel ORDER BY count(*) DESC, channel LIMIT $5
), labelled AS (
  SELECT w.at, w.failed, w.latency_ms, w.cost_micros,
         CASE WHEN w.model IN (SELECT model FROM top_models) THEN w.model ELSE $6 END AS model,
         CASE WHEN w.channel IN (SELECT channel FROM top_channels) THEN w.channel ELSE $6 END AS channel
    FROM w
)
SELECT CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel) = 0 THEN 'channel' ELSE 'total' END
         AS series,
       COALESCE(model, channel) AS name,
       to_char(at, 'YYYY-MM-DD"T"HH24:MI:00.000"Z"') AS at,
       count(*)::int8 AS requests,
       count(*) FILTER (WHERE failed)::int8 AS errors,
       COALESCE(sum(cost_micros), 0)::text AS spend_micros,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS latency_p50_ms,
       percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS latency_p95_ms
  FROM labelled
 GROUP BY GROUPING SETS ((at), (model, at), (channel, at))
 ORDER BY 1, 2, 3`;
  return {
    text,
    values: [bucket, UNKNOWN_GROUP, window.from.toISOString(), window.to.toISOString(), top, OTHER_SERIES],
  };
}
