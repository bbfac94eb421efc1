-- settle_leased_holds, rewritten so that a hold taken from a lease leaves no row in `holds`.
--
-- Until now the settlement wrote each leased hold's row, already settled, only to skip a request id
-- settled before. That row held nothing the request's log and ledger rows do not (the hold's amount
-- was a reservation taken from the lease, which the lease accounts for), and it was a third of the
-- rows a request wrote: with its primary key, its status index and its foreign-key check, about 28 %
-- of Postgres's CPU per request under load, and one more row per request kept for ever. The request
-- log is written exactly once per request id (its unique index), and every settlement writes one, so
-- the log's insert is now the guard: a request whose log exists was settled before and is skipped,
-- with its capture and ledger row. The capture, the lease's use and the ledger row are unchanged.
--
-- Rows written before keep their `lease_id`; holds taken without a lease (LEASE_HOLDS_AHEAD=0, tasks)
-- are still rows, settled by compare-and-swap (billing_settle_holds).
CREATE OR REPLACE FUNCTION settle_leased_holds(p_items jsonb) RETURNS TABLE (request_id text)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_now timestamp := now() AT TIME ZONE 'UTC';
BEGIN
  PERFORM 1 FROM accounts a
   WHERE a.id IN (SELECT i."accountId" FROM jsonb_to_recordset(p_items) AS i("accountId" text))
   ORDER BY a.id FOR NO KEY UPDATE;
  RETURN QUERY
  WITH input AS (
    SELECT *
      FROM jsonb_to_recordset(p_items) AS i(
        "requestId" text, "captureMicros" int8, "leaseId" text, "keyId" text, "accountId" text,
        "model" text, "channelId" text, "route" text, "httpStatus" int4, "endReason" text,
        "latencyMs" int4, "ttfbMs" int4, "inputTokens" int4, "outputTokens" int4, "attempts" int4)
  ), logged AS (
    INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                              latency_ms, ttfb_ms, input_tokens, output_tokens, cost_micros, attempts, created_at)
    SELECT i."requestId", i."keyId", i."accountId", i."model", i."channelId", i."route", i."httpStatus",
           i."endReason", i."latencyMs", i."ttfbMs", i."inputTokens", i."outputTokens", i."captureMicros",
           i."attempts", v_now
      FROM input i
    ON CONFLICT (request_id) DO NOTHING
    RETURNING request_logs.request_id
  ), applied AS (
    SELECT i.* FROM input i JOIN logged l ON l.request_id = i."requestId"
  ), used AS (
    SELECT l.id, l.account_id, least(l.amount, p.captured) AS amount
      FROM leases l
      JOIN (SELECT "leaseId", sum("captureMicros")::int8 AS captured FROM applied GROUP BY "leaseId") p
        ON p."leaseId" = l.id
     WHERE l.status = 'open'
  ), shrunk AS (
    UPDATE leases l SET amount = l.amount - u.amount FROM used u WHERE l.id = u.id
  ), debited AS (
    UPDATE accounts a
       SET balance = a.balance - p.captured,
           held = a.held - coalesce((SELECT sum(u.amount) FROM used u WHERE u.account_id = a.id), 0),
           updated_at = v_now
      FROM (SELECT "accountId", sum("captureMicros")::int8 AS captured FROM applied GROUP BY "accountId") p
     WHERE a.id = p."accountId"
  ), ledger AS (
    INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
    SELECT a."accountId", 'capture', a."captureMicros", 'capture:' || a."requestId", a."requestId", v_now
      FROM applied a
     WHERE a."captureMicros" > 0
  )
  SELECT a."requestId" FROM applied a;
END;
$$;
