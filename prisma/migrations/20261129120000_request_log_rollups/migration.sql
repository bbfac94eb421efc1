-- Rollups of request_logs for the admin figures (GET /admin/usage, GET /admin/overview): see
-- docs/admin-figures.md. Written only by roll_up_request_logs() below, which worker-text calls every
-- minute; whole minutes and hours up to a watermark, the raw rows stay the truth after it.

-- CreateTable
CREATE TABLE "request_log_minutes" (
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

    CONSTRAINT "request_log_minutes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "request_log_hours" (
    "id" BIGSERIAL NOT NULL,
    "bucket" TIMESTAMP(3) NOT NULL,
    "account_id" TEXT,
    "key_id" TEXT,
    "model" TEXT,
    "channel_id" TEXT,
    "requests" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "input_tokens" BIGINT NOT NULL,
    "output_tokens" BIGINT NOT NULL,
    "images" BIGINT NOT NULL,
    "media_seconds" BIGINT NOT NULL,
    "cost_micros" BIGINT NOT NULL,

    CONSTRAINT "request_log_hours_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rollup_watermarks" (
    "name" TEXT NOT NULL,
    "rolled_until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rollup_watermarks_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "request_log_minutes_bucket_idx" ON "request_log_minutes"("bucket");

-- CreateIndex
CREATE INDEX "request_log_hours_bucket_idx" ON "request_log_hours"("bucket");

-- Rolls whole minutes and hours of request_logs, from each table's watermark up to p_settle_lag ago
-- (a row is written with the time of its insert, so a minute that old has no row still to commit),
-- at most p_max_span per call so that a first run over a long history stays a bounded statement.
-- One caller at a time (an advisory lock; a second returns at once). Returns true when both rollups
-- have caught up, false when another call would roll more.
-- Latency buckets: l00 below 1 ms, then one per bound of the array (width_bucket), l34 from 600 s.
CREATE FUNCTION roll_up_request_logs(p_settle_lag interval, p_max_span interval) RETURNS boolean
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
      -- Each minute three times: overall ('total'), per model and per channel, the series the
      -- overview draws; a model or channel the log row lacks has a NULL name.
      INSERT INTO request_log_minutes (bucket, dimension, name, requests, errors, cost_micros,
                                       l00, l01, l02, l03, l04, l05, l06, l07, l08, l09, l10, l11, l12, l13, l14, l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27, l28, l29, l30, l31, l32, l33, l34)
      SELECT minute,
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
        FROM (SELECT date_trunc('minute', created_at) AS minute, model, channel_id, end_reason, cost_micros,
                     width_bucket(latency_ms, ARRAY[1,2,3,5,7,10,15,20,30,50,70,100,150,200,300,500,700,1000,1500,2000,3000,5000,7000,10000,15000,20000,30000,50000,70000,100000,150000,200000,300000,600000]) AS lb
                FROM request_logs
               WHERE created_at >= v_from AND created_at < v_to) AS r
       GROUP BY GROUPING SETS ((minute), (minute, model), (minute, channel_id));
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
      INSERT INTO rollup_watermarks (name, rolled_until) VALUES ('hour', v_to)
        ON CONFLICT (name) DO UPDATE SET rolled_until = EXCLUDED.rolled_until;
      v_caught_up := v_caught_up AND v_to >= date_trunc('hour', v_until);
    END IF;
  END IF;
  RETURN v_caught_up;
END;
$$;
