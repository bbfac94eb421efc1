/**
 * The columns of a statement item (see toStatementItem in settlement.service.ts) as jsonb_to_recordset
 * reads them: the request id, the capture and the request log's fields.
 */
export const STATEMENT_ITEM_COLUMNS = `
      "requestId" text, "captureMicros" int8, "keyId" text, "accountId" text, "model" text,
      "channelId" text, "route" text, "httpStatus" int4, "endReason" text, "latencyMs" int4,
      "ttfbMs" int4, "inputTokens" int4, "outputTokens" int4, "imageCount" int4, "mediaSeconds" int4,
      "attempts" int4`;

/**
 * Settles a batch of holds in one statement (one round trip, one implicit transaction). Its parameter is
 * a JSON array of { requestId, captureMicros, log columns… }; it returns each request it settled with
 * the micros its capture left uncaptured.
 *
 * Exactly once: a hold is settled by the compare-and-swap of its status from open to settled; a hold that
 * another settlement closed first is skipped, and its capture and request log are not written again.
 * The ledger's unique idempotency key (capture:<id>) is the backstop: a duplicate rolls the whole
 * statement back.
 *
 * Capture policy: the actual cost is captured as far as the account can pay it, never further: the
 * budget rule of migration `capped_captures` (capture_budget, capture_within_budget) shares what the
 * settled holds release plus what the account has free among the account's requests, their covered
 * parts first. What is left is the request's overage, written on its log row, not captured. The
 * account's `held` drops by the whole hold; the ledger gets one capture row when something was captured
 * (it records money that moved, not reservations).
 *
 * Deadlocks: holds and then accounts are locked in key order (ORDER BY … FOR UPDATE) before they are
 * updated, so two concurrent batches that share accounts wait for each other instead of deadlocking. A
 * hold take locks one account row only, so it cannot form a cycle with a settlement either. The locked
 * account rows are read as they are after the lock (the latest version), so the budget is current.
 *
 * Plans: holds are found by their keys alone (`= ANY` of an array: the primary key's index whatever
 * the statistics say), and the status is read from the locked rows (the latest version, as locking
 * leaves it), never put to the table as a condition. With `status = 'open'` among the conditions, a
 * table without fresh statistics (autovacuum off, or not run yet) was read through the (status,
 * expires_at) index, every open hold on each settlement: 20,000 index entries per task with 10,000
 * tasks outstanding in the benchmark.
 */
export const settleHoldsStatement = {
  name: 'billing_settle_holds',
  text: `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(${STATEMENT_ITEM_COLUMNS})
), locked_holds AS (
  SELECT h.request_id, h.status
    FROM holds h
   WHERE h.request_id = ANY (ARRAY(SELECT "requestId" FROM input))
   ORDER BY h.request_id
     FOR UPDATE
), settled AS (
  UPDATE holds h
     SET status = 'settled', settled_at = now() AT TIME ZONE 'UTC'
    FROM input i
   WHERE h.request_id = ANY (ARRAY(SELECT request_id FROM locked_holds WHERE status = 'open'))
     AND h.request_id = i."requestId"
  RETURNING h.request_id, h.account_id, h.key_id, h.model, h.amount AS hold_micros,
            i."captureMicros" AS requested_micros, least(i."captureMicros", h.amount) AS covered_micros
), locked_accounts AS (
  SELECT a.id, a.balance, a.held, a.overdraft_limit
    FROM accounts a
   WHERE a.id IN (SELECT account_id FROM settled)
   ORDER BY a.id
     FOR UPDATE
), budget AS (
  SELECT l.id AS account_id,
         capture_budget(l.balance, l.held, l.overdraft_limit,
                        (SELECT sum(s.hold_micros) FROM settled s WHERE s.account_id = l.id)) AS micros
    FROM locked_accounts l
), captured AS (
  SELECT s.*,
         capture_within_budget(
           s.requested_micros, s.covered_micros,
           sum(s.covered_micros) OVER running - s.covered_micros,
           sum(s.requested_micros - s.covered_micros) OVER running - (s.requested_micros - s.covered_micros),
           sum(s.covered_micros) OVER (PARTITION BY s.account_id),
           b.micros) AS capture_micros
    FROM settled s
    JOIN budget b ON b.account_id = s.account_id
  WINDOW running AS (PARTITION BY s.account_id ORDER BY s.request_id)
), per_account AS (
  SELECT account_id, sum(capture_micros)::int8 AS captured, sum(hold_micros)::int8 AS unheld
    FROM captured
   GROUP BY account_id
), debited AS (
  UPDATE accounts a
     SET balance = a.balance - p.captured, held = a.held - p.unheld, updated_at = now() AT TIME ZONE 'UTC'
    FROM per_account p
   WHERE a.id = p.account_id
), ledger AS (
  INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
  SELECT c.account_id, 'capture', c.capture_micros, 'capture:' || c.request_id, c.request_id,
         now() AT TIME ZONE 'UTC'
    FROM captured c
   WHERE c.capture_micros > 0
), logged AS (
  INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                            latency_ms, ttfb_ms, input_tokens, output_tokens, image_count, media_seconds,
                            cost_micros, overage_micros, attempts, created_at)
  SELECT c.request_id, coalesce(i."keyId", c.key_id), coalesce(i."accountId", c.account_id),
         coalesce(i."model", c.model), i."channelId", i."route", i."httpStatus", i."endReason",
         i."latencyMs", i."ttfbMs", i."inputTokens", i."outputTokens", coalesce(i."imageCount", 0),
         coalesce(i."mediaSeconds", 0), c.capture_micros, c.requested_micros - c.capture_micros,
         i."attempts", now() AT TIME ZONE 'UTC'
    FROM captured c
    JOIN input i ON i."requestId" = c.request_id
  ON CONFLICT (request_id) DO NOTHING
)
SELECT request_id, (requested_micros - capture_micros)::text AS overage_micros FROM captured`,
};

/**
 * Settles holds taken from leases: the `settle_leased_holds` function (migrations
 * `leased_holds_leave_no_row`, `capped_captures`) writes each request's log row, and a request whose log
 * exists was settled before and is skipped; for the others it captures from the lease and the balance,
 * as far as the account can pay, and writes the ledger row, exactly once per request id. Such a hold
 * never has a row in `holds`. Its parameter is a JSON array of the same items plus the lease's record of
 * the hold (leaseId, keyId, accountId, model, route, and holdMicros: what the lease reserved for it).
 * Leases serve text only, so the function writes no image count or media seconds (their columns keep
 * their default, 0).
 */
export const settleLeasedHoldsStatement = {
  name: 'billing_settle_leased_holds',
  text: 'SELECT request_id, overage_micros::text FROM settle_leased_holds($1::jsonb)',
};
