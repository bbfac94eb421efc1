import type { Pool } from 'pg';

// A test helper: the rollups as they must be, summed again from the raw rows by plain SQL written apart
// from roll_up_request_logs(), and the rows where the stored rollups differ from them.

const HISTOGRAM_COLUMNS =
  'l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27, l28, l29, l30, l31, l32, l33, l34';
const HISTOGRAM_OF_RAW =
  'count(*) FILTER (WHERE lb = 0), count(*) FILTER (WHERE lb = 1), count(*) FILTER (WHERE lb = 2), count(*) FILTER (WHERE lb = 3), count(*) FILTER (WHERE lb = 4), count(*) FILTER (WHERE lb = 5), count(*) FILTER (WHERE lb = 6), count(*) FILTER (WHERE lb = 7), count(*) FILTER (WHERE lb = 8), count(*) FILTER (WHERE lb = 9), count(*) FILTER (WHERE lb = 10), count(*) FILTER (WHERE lb = 11), count(*) FILTER (WHERE lb = 12), count(*) FILTER (WHERE lb = 13), count(*) FILTER (WHERE lb = 14), count(*) FILTER (WHERE lb = 15), count(*) FILTER (WHERE lb = 16), count(*) FILTER (WHERE lb = 17), count(*) FILTER (WHERE lb = 18), count(*) FILTER (WHERE lb = 19), count(*) FILTER (WHERE lb = 20), count(*) FILTER (WHERE lb = 21), count(*) FILTER (WHERE lb = 22), count(*) FILTER (WHERE lb = 23), count(*) FILTER (WHERE lb = 24), count(*) FILTER (WHERE lb = 25), count(*) FILTER (WHERE lb = 26), count(*) FILTER (WHERE lb = 27), count(*) FILTER (WHERE lb = 28), count(*) FILTER (WHERE lb = 29), count(*) FILTER (WHERE lb = 30), count(*) FILTER (WHERE lb = 31), count(*) FILTER (WHERE lb = 32), count(*) FILTER (WHERE lb = 33), count(*) FILTER (WHERE lb = 34)';
const LATENCY_BUCKET =
  'width_bucket(latency_ms, ARRAY[1,2,3,5,7,10,15,20,30,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,10000,15000,20000,30000,50000,70000,100000,150000,200000,300000,600000]) AS lb';

/** Overall, per model and per channel, per `unit` (minute or hour), of the raw rows before `until`. */
function seriesOfRaw(unit: 'minute' | 'hour', until: string): string {
  return `SELECT bucket,
                 CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel_id) = 0 THEN 'channel' ELSE 'total' END AS dimension,
                 CASE WHEN GROUPING(model) = 0 THEN model WHEN GROUPING(channel_id) = 0 THEN channel_id END AS name,
                 count(*)::int8 AS requests, (count(*) FILTER (WHERE end_reason <> 'completed'))::int8 AS errors,
                 COALESCE(sum(cost_micros), 0)::int8 AS cost_micros, ${HISTOGRAM_OF_RAW}
            FROM (SELECT date_trunc('${unit}', created_at) AS bucket, model, channel_id, end_reason, cost_micros, ${LATENCY_BUCKET}
                    FROM request_logs WHERE created_at < (${until})) AS r
           GROUP BY GROUPING SETS ((bucket), (bucket, model), (bucket, channel_id))`;
}

const USAGE_OF_RAW = (until: string) => `
  SELECT date_trunc('hour', created_at) AS bucket, account_id, key_id, model, channel_id, count(*)::int8,
         (count(*) FILTER (WHERE end_reason <> 'completed'))::int8, COALESCE(sum(input_tokens), 0)::int8,
         COALESCE(sum(output_tokens), 0)::int8, COALESCE(sum(image_count), 0)::int8,
         COALESCE(sum(media_seconds), 0)::int8, COALESCE(sum(cost_micros), 0)::int8
    FROM request_logs WHERE created_at < (${until}) GROUP BY 1, 2, 3, 4, 5`;

const STORED_USAGE = `SELECT bucket, account_id, key_id, model, channel_id, requests, errors, input_tokens, output_tokens,
                             images, media_seconds, cost_micros FROM request_log_hours`;

/** Rows in one set and not the other, counted with their multiplicity (a minute rolled twice counts). */
const differences = (stored: string, expected: string) =>
  `SELECT count(*)::int AS n FROM ((${stored}) EXCEPT ALL (${expected})
                                  UNION ALL ((${expected}) EXCEPT ALL (${stored}))) AS d`;

export interface RollupDifferences {
  minutes: number;
  hours: number;
  seriesHours: number;
  /** Requests before each watermark in the raw rows, to show the comparison was not of empty sets. */
  rawRequests: number;
}

/**
 * How many rows of each rollup differ from the raw rows' sums over every bucket before its watermark
 * (from `from` on: older buckets may have been swept). All zero: no minute or hour counted twice,
 * none missing, every sum and histogram exact.
 */
export async function rollupDifferences(
  pool: Pool,
  from = "'-infinity'::timestamp",
): Promise<RollupDifferences> {
  const until = (name: string) => `SELECT rolled_until FROM rollup_watermarks WHERE name = '${name}'`;
  const since = (sql: string) => `SELECT * FROM (${sql}) AS s WHERE bucket >= ${from}`;
  const columns = `bucket, dimension, name, requests, errors, cost_micros, ${HISTOGRAM_COLUMNS}`;
  const one = async (sql: string) => (await pool.query<{ n: number }>(sql)).rows[0].n;
  return {
    minutes: await one(
      differences(
        since(`SELECT ${columns} FROM request_log_minutes`),
        since(seriesOfRaw('minute', until('minute'))),
      ),
    ),
    hours: await one(differences(since(STORED_USAGE), since(USAGE_OF_RAW(until('hour'))))),
    seriesHours: await one(
      differences(
        since(`SELECT ${columns} FROM request_log_series_hours`),
        since(seriesOfRaw('hour', until('hour'))),
      ),
    ),
    rawRequests: await one(
      `SELECT count(*)::int AS n FROM request_logs WHERE created_at < (${until('minute')})`,
    ),
  };
}
