-- AlterTable
ALTER TABLE "prices" ADD COLUMN     "max_reasoning_tokens" INTEGER;

-- AlterTable
ALTER TABLE "request_logs" ADD COLUMN     "overage_micros" BIGINT NOT NULL DEFAULT 0;

-- Captures are capped by what the account can pay: an account never goes below minus its overdraft
-- limit, whatever usage the upstream reports. What the cap leaves uncaptured is recorded on the
-- request's log row (`overage_micros`), for the operator, who absorbs it.
--
-- The capture a request asks for is split in two: the part its hold covers (what was reserved for it)
-- and the part beyond. An account's settlements in one statement share one budget: what the statement
-- releases of the account's reservations (the holds it settles, or what it takes from leases) plus
-- what the account has free (balance − held + overdraft limit, when positive), and never more than
-- takes the balance to minus the overdraft limit. The budget pays every request's covered part first,
-- then the parts beyond, each in request id order; so a request that stayed within its hold is paid in
-- full before any overshoot is, and the account's available amount never goes below zero.

-- One request's capture within its account's budget, from window sums over the account's requests in
-- request id order: the covered parts and the parts beyond before it, and all covered parts together.
CREATE FUNCTION capture_within_budget(
  p_requested numeric,
  p_covered numeric,
  p_covered_before numeric,
  p_beyond_before numeric,
  p_covered_total numeric,
  p_budget numeric
) RETURNS int8
LANGUAGE sql IMMUTABLE AS $$
  SELECT (greatest(0, least(p_covered, p_budget - p_covered_before))
        + greatest(0, least(p_requested - p_covered,
                            greatest(0, p_budget - p_covered_total) - p_beyond_before)))::int8
$$;

-- What an account can pay in one settlement statement: what the statement releases of its
-- reservations plus what it has free, at most down to minus its overdraft limit.
CREATE FUNCTION capture_budget(p_balance int8, p_held int8, p_overdraft_limit int8, p_released numeric)
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT least(p_released + greatest(0, p_balance - p_held + p_overdraft_limit),
               greatest(0, p_balance + p_overdraft_limit))
$$;

-- settle_leased_holds with capped captures. The request's log row stays the once-only guard: a
-- request whose log exists was settled before and is skipped. The account lock taken first orders
-- this call after any other settlement of the same request (its items name the same account), so the
-- statement after it sees that settlement's log; a log row that still appears meanwhile fails the
-- insert and rolls the whole call back rather than capturing without a log. Each item's `holdMicros`
-- is what its lease reserved for it when it ended (topped up from the lease's spare when the usage
-- overshot, see HoldLeases.release): that part of the capture is taken from the lease, as far as the
-- open lease still reserves it; the rest comes from what the account has free. Returns each settled
-- request with the micros its capture left uncaptured.
DROP FUNCTION settle_leased_holds(jsonb);
CREATE FUNCTION settle_leased_holds(p_items jsonb) RETURNS TABLE (request_id text, overage_micros int8)
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
     WHERE NOT EXISTS (SELECT 1 FROM request_logs l WHERE l.request_id = i."requestId")
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
