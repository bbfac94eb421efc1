-- settle_leased_holds: the check that a request was not settled before probes the request log's
-- unique index once per item, whatever the planner believes of the table.
--
-- It was `WHERE NOT EXISTS (SELECT 1 FROM request_logs …)`, which Postgres turns into an anti-join and
-- plans from the table's statistics: with stale statistics (a table grown since its last ANALYZE,
-- autovacuum behind or off) it can pick a hash anti-join that reads the whole request log for a batch
-- of a few dozen items. A LATERAL subquery with LIMIT cannot be flattened into a join, so each item is
-- one index lookup on request_logs_request_id_key, as it was meant to be. Nothing else changes.
CREATE OR REPLACE FUNCTION settle_leased_holds(p_items jsonb) RETURNS TABLE (request_id text, overage_micros int8)
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
    SELECT DISTINCT ON (i."requestId") i.*, least(i."captureMicros", coalesce(i."holdMicros", 0)) AS covered
      FROM jsonb_to_recordset(p_items) AS i(
        "requestId" text, "captureMicros" int8, "holdMicros" int8, "leaseId" text, "keyId" text,
        "accountId" text, "model" text, "channelId" text, "route" text, "httpStatus" int4,
        "endReason" text, "latencyMs" int4, "ttfbMs" int4, "inputTokens" int4, "outputTokens" int4,
        "attempts" int4)
      LEFT JOIN LATERAL (SELECT true AS seen FROM request_logs l WHERE l.request_id = i."requestId" LIMIT 1) settled
        ON true
     WHERE settled.seen IS NULL
     ORDER BY i."requestId"
  ), used AS (
    SELECT l.id, l.account_id, least(l.amount, p.covered)::int8 AS amount
      FROM leases l
      JOIN (SELECT "leaseId", sum(covered) AS covered FROM input GROUP BY "leaseId") p ON p."leaseId" = l.id
     WHERE l.status = 'open'
  ), budget AS (
    SELECT a.id AS account_id,
           capture_budget(a.balance, a.held, a.overdraft_limit,
                          coalesce((SELECT sum(u.amount) FROM used u WHERE u.account_id = a.id), 0)) AS micros
      FROM accounts a
     WHERE a.id IN (SELECT "accountId" FROM input)
  ), captured AS (
    SELECT i.*,
           capture_within_budget(
             i."captureMicros", i.covered,
             sum(i.covered) OVER running - i.covered,
             sum(i."captureMicros" - i.covered) OVER running - (i."captureMicros" - i.covered),
             sum(i.covered) OVER (PARTITION BY i."accountId"),
             b.micros) AS "capturedMicros"
      FROM input i
      JOIN budget b ON b.account_id = i."accountId"
    WINDOW running AS (PARTITION BY i."accountId" ORDER BY i."requestId")
  ), logged AS (
    INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                              latency_ms, ttfb_ms, input_tokens, output_tokens, cost_micros, overage_micros,
                              attempts, created_at)
    SELECT c."requestId", c."keyId", c."accountId", c."model", c."channelId", c."route", c."httpStatus",
           c."endReason", c."latencyMs", c."ttfbMs", c."inputTokens", c."outputTokens", c."capturedMicros",
           c."captureMicros" - c."capturedMicros", c."attempts", v_now
      FROM captured c
  ), shrunk AS (
    UPDATE leases l SET amount = l.amount - u.amount FROM used u WHERE l.id = u.id
  ), debited AS (
    UPDATE accounts a
       SET balance = a.balance - p.captured,
           held = a.held - coalesce((SELECT sum(u.amount) FROM used u WHERE u.account_id = a.id), 0),
           updated_at = v_now
      FROM (SELECT "accountId", sum("capturedMicros")::int8 AS captured FROM captured GROUP BY "accountId") p
     WHERE a.id = p."accountId"
  ), ledger AS (
    INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
    SELECT c."accountId", 'capture', c."capturedMicros", 'capture:' || c."requestId", c."requestId", v_now
      FROM captured c
     WHERE c."capturedMicros" > 0
  )
  SELECT c."requestId", (c."captureMicros" - c."capturedMicros")::int8 FROM captured c;
END;
$$;
