/**
 * The columns of a statement item (see toStatementItem in settlement.service.ts) as jsonb_to_recordset
 * reads them: the request id, the capture and the request log's fields.
 */
export const STATEMENT_ITEM_COLUMNS = `
      "requestId" text, "captureMicros" int8, "keyId" text, "accountId" text, "model" text,
      "channelId" text, "route" text, "httpStatus" int4, "endReason" text, "latencyMs" int4,
      "ttfbMs" int4, "inputTokens" int4, "outputTokens" int4, "attempts" int4`;

/**
 * Settles a batch of holds in one statement (one round trip, one implicit transaction). Its parameter is
 * a JSON array of { requestId, captureMicros, log columns… }.
 *
 * Exactly once: a hold is settled by the compare-and-swap of its status from open to settled; a hold that
 * another settlement closed first is skipped, and its capture and request log are not written again.
 * The ledger's unique idempotency key (capture:<id>) is the backstop: a duplicate rolls the whole
 * statement back.
 *
 * Capture policy: the actual cost is captured in full even when it exceeds the hold, because the hold is
 * an estimate and the upstream has already been paid. The balance may then fall below what the hold and
 * the overdraft limit covered; the overdraft limit bounds what can be held, the hold estimate bounds how
 * far one request can overshoot. The account's `held` drops by the whole hold; the ledger gets one
 * capture row when something was captured (it records money that moved, not reservations).
 *
 * Deadlocks: holds and then accounts are locked in key order (ORDER BY … FOR UPDATE) before they are
 * updated, so two concurrent batches that share accounts wait for each other instead of deadlocking. A
 * hold take locks one account row only, so it cannot form a cycle with a settlement either.
 */
export const settleHoldsStatement = {
  name: 'billing_settle_holds',
  text: `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(${STATEMENT_ITEM_COLUMNS})
), locked_holds AS (
  SELECT h.request_id
    FROM holds h
   WHERE h.request_id IN (SELECT "requestId" FROM input) AND h.status = 'open'
   ORDER BY h.request_id
     FOR UPDATE
), settled AS (
  UPDATE holds h
     SET status = 'settled', settled_at = now() AT TIME ZONE 'UTC'
    FROM input i
   WHERE h.request_id = i."requestId"
     AND h.request_id IN (SELECT request_id FROM locked_holds)
     AND h.status = 'open'
  RETURNING h.request_id, h.account_id, h.key_id, h.model, h.amount AS hold_micros,
            i."captureMicros" AS capture_micros
), per_account AS (
  SELECT account_id, sum(capture_micros)::int8 AS captured, sum(hold_micros)::int8 AS unheld
    FROM settled
   GROUP BY account_id
), locked_accounts AS (
  SELECT a.id
    FROM accounts a
   WHERE a.id IN (SELECT account_id FROM per_account)
   ORDER BY a.id
     FOR UPDATE
), debited AS (
  UPDATE accounts a
     SET balance = a.balance - p.captured, held = a.held - p.unheld, updated_at = now() AT TIME ZONE 'UTC'
    FROM per_account p
    JOIN locked_accounts l ON l.id = p.account_id
   WHERE a.id = p.account_id
), ledger AS (
  INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
  SELECT s.account_id, 'capture', s.capture_micros, 'capture:' || s.request_id, s.request_id,
         now() AT TIME ZONE 'UTC'
    FROM settled s
   WHERE s.capture_micros > 0
), logged AS (
  INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                            latency_ms, ttfb_ms, input_tokens, output_tokens, cost_micros, attempts, created_at)
  SELECT s.request_id, coalesce(i."keyId", s.key_id), coalesce(i."accountId", s.account_id),
         coalesce(i."model", s.model), i."channelId", i."route", i."httpStatus", i."endReason",
         i."latencyMs", i."ttfbMs", i."inputTokens", i."outputTokens", s.capture_micros, i."attempts",
         now() AT TIME ZONE 'UTC'
    FROM settled s
    JOIN input i ON i."requestId" = s.request_id
  ON CONFLICT (request_id) DO NOTHING
)
SELECT request_id FROM settled`,
};

/**
 * Settles holds taken from leases: the `settle_leased_holds` function (migration
 * `leased_holds_leave_no_row`) writes each request's log row, and a request whose log exists was
 * settled before and is skipped; for the others it captures from the balance and from the lease and
 * writes the ledger row, exactly once per request id. Such a hold never has a row in `holds`. Its
 * parameter is a JSON array of the same items plus the lease's record of the hold (leaseId, keyId,
 * accountId, model, route).
 */
export const settleLeasedHoldsStatement = {
  name: 'billing_settle_leased_holds',
  text: 'SELECT request_id FROM settle_leased_holds($1::jsonb)',
};
