-- The overview's series per hour (request_log_series_hours), filled by roll_up_request_logs() with the
-- hourly rollup, and the retention of the rollups (sweep_request_log_rollups): docs/admin-figures.md.

-- CreateTable
CREATE TABLE "request_log_series_hours" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TIMESTAMP(3) NOT NULL,
    "dimension" TEXT NOT NULL,
    "name" TEXT,
    "requests" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "cost_micros" BIGINT NOT NULL,
    "l00" INTEGER NOT NULL DEFAULT 0,
    "l01" INTEGER NOT NULL DEFAULT 0,
    "l02" INTEGER NOT NULL DEFAULT 0,
    "l03" INTEGER NOT NULL DEFAULT 0,
    "l04" INTEGER NOT NULL DEFAULT 0,
    "l05" INTEGER NOT NULL DEFAULT 0,
    "l06" INTEGER NOT NULL DEFAULT 0,
    "l07" INTEGER NOT NULL DEFAULT 0,
    "l08" INTEGER NOT NULL DEFAULT 0,
    "l09" INTEGER NOT NULL DEFAULT 0,
    "l10" INTEGER NOT NULL DEFAULT 0,
    "l11" INTEGER NOT NULL DEFAULT 0,
    "l12" INTEGER NOT NULL DEFAULT 0,
    "l13" INTEGER NOT NULL DEFAULT 0,
    "l14" INTEGER NOT NULL DEFAULT 0,
    "l15" INTEGER NOT NULL DEFAULT 0,
    "l16" INTEGER NOT NULL DEFAULT 0,
    "l17" INTEGER NOT NULL DEFAULT 0,
    "l18" INTEGER NOT NULL DEFAULT 0,
    "l19" INTEGER NOT NULL DEFAULT 0,
    "l20" INTEGER NOT NULL DEFAULT 0,
    "l21" INTEGER NOT NULL DEFAULT 0,
    "l22" INTEGER NOT NULL DEFAULT 0,
    "l23" INTEGER NOT NULL DEFAULT 0,
    "l24" INTEGER NOT NULL DEFAULT 0,
    "l25" INTEGER NOT NULL DEFAULT 0,
    "l26" INTEGER NOT NULL DEFAULT 0,
    "l27" INTEGER NOT NULL DEFAULT 0,
    "l28" INTEGER NOT NULL DEFAULT 0,
    "l29" INTEGER NOT NULL DEFAULT 0,
    "l30" INTEGER NOT NULL DEFAULT 0,
    "l31" INTEGER NOT NULL DEFAULT 0,
    "l32" INTEGER NOT NULL DEFAULT 0,
    "l33" INTEGER NOT NULL DEFAULT 0,
    "l34" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "request_log_series_hours_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "request_log_series_hours_bucket_idx" ON "request_log_series_hours"("bucket");

-- The hours already rolled up, from the minute rows (every minute before the hour watermark is there:
-- the minute watermark is never behind the hour one, and no minute row was deleted before this).
INSERT INTO request_log_series_hours (bucket, dimension, name, requests, errors, cost_micros, l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27, l28, l29, l30, l31, l32, l33, l34)
SELECT date_trunc('hour', bucket), dimension, name, sum(requests), sum(errors), sum(cost_micros), sum(l00), sum(l01), sum(l02), sum(l03), sum(l04), sum(l05), sum(l06), sum(l07), sum(l08), sum(l09), sum(l10), sum(l11), sum(l12), sum(l13), sum(l14), sum(l15), sum(l16), sum(l17), sum(l18), sum(l19), sum(l20), sum(l21), sum(l22), sum(l23), sum(l24), sum(l25), sum(l26), sum(l27), sum(l28), sum(l29), sum(l30), sum(l31), sum(l32), sum(l33), sum(l34)
  FROM request_log_minutes
 WHERE bucket < (SELECT rolled_until FROM rollup_watermarks WHERE name = 'hour')
 GROUP BY 1, 2, 3;

-- As in migration request_log_rollups, and the hour section now also writes the overview's series per
-- hour (overall, per model, per channel, with the latency histogram) in the same transaction as the
-- hour rows and the hour watermark: request_log_series_hours holds exactly the hours before it.
CREATE OR REPLACE FUNCTION roll_up_request_logs(p_settle_lag interval, p_max_span interval) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_until timestamp(3) := (now() AT TIME ZONE 'UTC') - p_settle_lag;
  v_from timestamp(3);
  v_to timestamp(3);
  v_caught_up boolean := true;
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('roll_up_request_logs')) THEN
    RETURN true;
  END IF;

  SELECT rolled_until INTO v_from FROM rollup_watermarks WHERE name = 'minute';
  IF v_from IS NULL THEN
    SELECT date_trunc('minute', min(created_at)) INTO v_from FROM request_logs;
  END IF;
  IF v_from IS NOT NULL THEN
    v_to := date_trunc('minute', least(v_until, v_from + p_max_span));
    IF v_to > v_from THEN
      INSERT INTO request_log_minutes (bucket, dimension, name, requests, errors, cost_micros, l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27, l28, l29, l30, l31, l32, l33, l34)
      SELECT bucket,
             CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel_id) = 0 THEN 'channel' ELSE 'total' END,
             CASE WHEN GROUPING(model) = 0 THEN model WHEN GROUPING(channel_id) = 0 THEN channel_id END,
             count(*), count(*) FILTER (WHERE end_reason <> 'completed'), COALESCE(sum(cost_micros), 0),
             count(*) FILTER (WHERE lb = 0),
             count(*) FILTER (WHERE lb = 1),
             count(*) FILTER (WHERE lb = 2),
             count(*) FILTER (WHERE lb = 3),
             count(*) FILTER (WHERE lb = 4),
             count(*) FILTER (WHERE lb = 5),
             count(*) FILTER (WHERE lb = 6),
             count(*) FILTER (WHERE lb = 7),
             count(*) FILTER (WHERE lb = 8),
             count(*) FILTER (WHERE lb = 9),
             count(*) FILTER (WHERE lb = 10),
             count(*) FILTER (WHERE lb = 11),
             count(*) FILTER (WHERE lb = 12),
             count(*) FILTER (WHERE lb = 13),
             count(*) FILTER (WHERE lb = 14),
             count(*) FILTER (WHERE lb = 15),
             count(*) FILTER (WHERE lb = 16),
             count(*) FILTER (WHERE lb = 17),
             count(*) FILTER (WHERE lb = 18),
             count(*) FILTER (WHERE lb = 19),
             count(*) FILTER (WHERE lb = 20),
             count(*) FILTER (WHERE lb = 21),
             count(*) FILTER (WHERE lb = 22),
             count(*) FILTER (WHERE lb = 23),
             count(*) FILTER (WHERE lb = 24),
             count(*) FILTER (WHERE lb = 25),
             count(*) FILTER (WHERE lb = 26),
             count(*) FILTER (WHERE lb = 27),
             count(*) FILTER (WHERE lb = 28),
             count(*) FILTER (WHERE lb = 29),
             count(*) FILTER (WHERE lb = 30),
             count(*) FILTER (WHERE lb = 31),
             count(*) FILTER (WHERE lb = 32),
             count(*) FILTER (WHERE lb = 33),
             count(*) FILTER (WHERE lb = 34)
        FROM (SELECT date_trunc('minute', created_at) AS bucket, model, channel_id, end_reason, cost_micros,
                     width_bucket(latency_ms, ARRAY[1,2,3,5,7,10,15,20,30,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,10000,15000,20000,30000,50000,70000,100000,150000,200000,300000,600000]) AS lb
                FROM request_logs
               WHERE created_at >= v_from AND created_at < v_to) AS r
       GROUP BY GROUPING SETS ((bucket), (bucket, model), (bucket, channel_id));
      INSERT INTO rollup_watermarks (name, rolled_until) VALUES ('minute', v_to)
        ON CONFLICT (name) DO UPDATE SET rolled_until = EXCLUDED.rolled_until;
      v_caught_up := v_caught_up AND v_to >= date_trunc('minute', v_until);
    END IF;
  END IF;

  SELECT rolled_until INTO v_from FROM rollup_watermarks WHERE name = 'hour';
  IF v_from IS NULL THEN
    SELECT date_trunc('hour', min(created_at)) INTO v_from FROM request_logs;
  END IF;
  IF v_from IS NOT NULL THEN
    v_to := date_trunc('hour', least(v_until, v_from + p_max_span));
    IF v_to > v_from THEN
      INSERT INTO request_log_hours (bucket, account_id, key_id, model, channel_id, requests, errors,
                                     input_tokens, output_tokens, images, media_seconds, cost_micros)
      SELECT date_trunc('hour', created_at), account_id, key_id, model, channel_id, count(*),
             count(*) FILTER (WHERE end_reason <> 'completed'), COALESCE(sum(input_tokens), 0),
             COALESCE(sum(output_tokens), 0), COALESCE(sum(image_count), 0),
             COALESCE(sum(media_seconds), 0), COALESCE(sum(cost_micros), 0)
        FROM request_logs
       WHERE created_at >= v_from AND created_at < v_to
       GROUP BY 1, 2, 3, 4, 5;
      INSERT INTO request_log_series_hours (bucket, dimension, name, requests, errors, cost_micros, l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27, l28, l29, l30, l31, l32, l33, l34)
      SELECT bucket,
             CASE WHEN GROUPING(model) = 0 THEN 'model' WHEN GROUPING(channel_id) = 0 THEN 'channel' ELSE 'total' END,
             CASE WHEN GROUPING(model) = 0 THEN model WHEN GROUPING(channel_id) = 0 THEN channel_id END,
             count(*), count(*) FILTER (WHERE end_reason <> 'completed'), COALESCE(sum(cost_micros), 0),
             count(*) FILTER (WHERE lb = 0),
             count(*) FILTER (WHERE lb = 1),
             count(*) FILTER (WHERE lb = 2),
             count(*) FILTER (WHERE lb = 3),
             count(*) FILTER (WHERE lb = 4),
             count(*) FILTER (WHERE lb = 5),
             count(*) FILTER (WHERE lb = 6),
             count(*) FILTER (WHERE lb = 7),
             count(*) FILTER (WHERE lb = 8),
             count(*) FILTER (WHERE lb = 9),
             count(*) FILTER (WHERE lb = 10),
             count(*) FILTER (WHERE lb = 11),
             count(*) FILTER (WHERE lb = 12),
             count(*) FILTER (WHERE lb = 13),
             count(*) FILTER (WHERE lb = 14),
             count(*) FILTER (WHERE lb = 15),
             count(*) FILTER (WHERE lb = 16),
             count(*) FILTER (WHERE lb = 17),
             count(*) FILTER (WHERE lb = 18),
             count(*) FILTER (WHERE lb = 19),
             count(*) FILTER (WHERE lb = 20),
             count(*) FILTER (WHERE lb = 21),
             count(*) FILTER (WHERE lb = 22),
             count(*) FILTER (WHERE lb = 23),
             count(*) FILTER (WHERE lb = 24),
             count(*) FILTER (WHERE lb = 25),
             count(*) FILTER (WHERE lb = 26),
             count(*) FILTER (WHERE lb = 27),
             count(*) FILTER (WHERE lb = 28),
             count(*) FILTER (WHERE lb = 29),
             count(*) FILTER (WHERE lb = 30),
             count(*) FILTER (WHERE lb = 31),
             count(*) FILTER (WHERE lb = 32),
             count(*) FILTER (WHERE lb = 33),
             count(*) FILTER (WHERE lb = 34)
        FROM (SELECT date_trunc('hour', created_at) AS bucket, model, channel_id, end_reason, cost_micros,
                     width_bucket(latency_ms, ARRAY[1,2,3,5,7,10,15,20,30,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,10000,15000,20000,30000,50000,70000,100000,150000,200000,300000,600000]) AS lb
                FROM request_logs
               WHERE created_at >= v_from AND created_at < v_to) AS r
       GROUP BY GROUPING SETS ((bucket), (bucket, model), (bucket, channel_id));
      INSERT INTO rollup_watermarks (name, rolled_until) VALUES ('hour', v_to)
        ON CONFLICT (name) DO UPDATE SET rolled_until = EXCLUDED.rolled_until;
      v_caught_up := v_caught_up AND v_to >= date_trunc('hour', v_until);
    END IF;
  END IF;
  RETURN v_caught_up;
END;
$$;

-- Deletes rollup rows past their retention, at most p_batch rows per table per call (short
-- transactions beside the live rollup), and returns how many it deleted; the caller calls again while
-- that is more than zero. Minute rows go when older than p_minute_keep, whole hours only and never
-- past the hour watermark, so the series per hour hold every hour whose minutes are gone; hour rows
-- (usage and series) go when older than p_hour_keep. Before deleting, it publishes the floor below
-- which a table's rows may be missing ('minute_floor', 'hour_floor' in rollup_watermarks, in this
-- same transaction): readers take rows from the floor on only, and read what lies before it
-- elsewhere. A floor never moves back.
CREATE FUNCTION sweep_request_log_rollups(p_minute_keep interval, p_hour_keep interval, p_batch integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamp(3) := now() AT TIME ZONE 'UTC';
  v_minute_floor timestamp(3);
  v_hour_floor timestamp(3);
  v_deleted integer := 0;
  v_count integer;
BEGIN
  SELECT least(date_trunc('hour', v_now - p_minute_keep), rolled_until) INTO v_minute_floor
    FROM rollup_watermarks WHERE name = 'hour';
  v_hour_floor := date_trunc('hour', v_now - p_hour_keep);

  IF v_minute_floor IS NOT NULL THEN
    INSERT INTO rollup_watermarks (name, rolled_until) VALUES ('minute_floor', v_minute_floor)
      ON CONFLICT (name) DO UPDATE SET rolled_until = greatest(rollup_watermarks.rolled_until, EXCLUDED.rolled_until);
    DELETE FROM request_log_minutes WHERE id IN (
      SELECT id FROM request_log_minutes WHERE bucket < v_minute_floor ORDER BY bucket LIMIT p_batch);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    v_deleted := v_deleted + v_count;
  END IF;

  INSERT INTO rollup_watermarks (name, rolled_until) VALUES ('hour_floor', v_hour_floor)
    ON CONFLICT (name) DO UPDATE SET rolled_until = greatest(rollup_watermarks.rolled_until, EXCLUDED.rolled_until);
  DELETE FROM request_log_hours WHERE id IN (
    SELECT id FROM request_log_hours WHERE bucket < v_hour_floor ORDER BY bucket LIMIT p_batch);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  v_deleted := v_deleted + v_count;
  DELETE FROM request_log_series_hours WHERE id IN (
    SELECT id FROM request_log_series_hours WHERE bucket < v_hour_floor ORDER BY bucket LIMIT p_batch);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_deleted + v_count;
END;
$$;
