-- AlterTable
ALTER TABLE "holds" ADD COLUMN     "lease_id" TEXT;

-- CreateTable
CREATE TABLE "leases" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "closed_at" TIMESTAMP(3),

    CONSTRAINT "leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "leases_status_expires_at_idx" ON "leases"("status", "expires_at");

-- AddForeignKey
ALTER TABLE "leases" ADD CONSTRAINT "leases_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Leases: a gateway process reserves an amount on an account once and takes holds from it in memory,
-- so a request's hold costs no database round trip (see libs/billing/src/lease/hold-leases.ts). The
-- account's `held` counts each open lease's amount as it counts each open hold's. Every function below
-- locks the account rows first, in id order, before it reads or changes a lease: leases change only
-- under their account's lock, so their amounts cannot move between a read and the update that uses it,
-- and no two of these functions (nor take_holds, nor the hold settlement) can deadlock.
ALTER TABLE "leases" ADD CONSTRAINT "leases_amount_not_negative" CHECK ("amount" >= 0);
ALTER TABLE "leases" ADD CONSTRAINT "leases_status_known" CHECK ("status" IN ('open', 'closed'));

-- Opens the lease, or adds to it, and pushes its expiry to now + p_ttl_ms. When the account can cover
-- p_need (always when it is 0, which only renews), it grants as much of p_want as is available, at least
-- p_need: state 'granted'. Otherwise it changes nothing: 'refused'. A lease that was closed (by its owner
-- or the reaper) never reopens: 'closed', and its owner must start another. No such account: 'unknown'.
-- `available` is what the account has left after the grant.
CREATE FUNCTION reserve_lease(
  p_lease_id text,
  p_account_id text,
  p_owner text,
  p_need int8,
  p_want int8,
  p_ttl_ms int8
) RETURNS TABLE (state text, granted int8, available int8)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamp := now() AT TIME ZONE 'UTC';
  v_available int8;
  v_grant int8;
BEGIN
  SELECT a.balance - a.held + a.overdraft_limit INTO v_available
    FROM accounts a WHERE a.id = p_account_id FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'unknown'::text, 0::int8, NULL::int8;
  ELSIF EXISTS (SELECT 1 FROM leases l WHERE l.id = p_lease_id AND l.status = 'closed') THEN
    RETURN QUERY SELECT 'closed'::text, 0::int8, v_available;
  ELSIF p_need > 0 AND v_available < p_need THEN
    RETURN QUERY SELECT 'refused'::text, 0::int8, v_available;
  ELSE
    v_grant := greatest(p_need, least(p_want, v_available));
    IF v_grant > 0 THEN
      UPDATE accounts SET held = held + v_grant, updated_at = v_now WHERE id = p_account_id;
    END IF;
    INSERT INTO leases (id, account_id, owner, amount, status, created_at, expires_at)
    VALUES (p_lease_id, p_account_id, p_owner, v_grant, 'open', v_now, v_now + p_ttl_ms * interval '1 millisecond')
    ON CONFLICT (id) DO UPDATE
      SET amount = leases.amount + EXCLUDED.amount,
          expires_at = greatest(leases.expires_at, EXCLUDED.expires_at);
    RETURN QUERY SELECT 'granted'::text, v_grant, v_available - v_grant;
  END IF;
END;
$$;

-- Closes open leases and gives what they still reserve back to their accounts. Returns each lease it
-- closed with the amount released; a lease closed before is skipped.
CREATE FUNCTION close_leases(p_lease_ids text[]) RETURNS TABLE (lease_id text, released int8)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_now timestamp := now() AT TIME ZONE 'UTC';
BEGIN
  PERFORM 1 FROM accounts a
   WHERE a.id IN (SELECT l.account_id FROM leases l WHERE l.id = ANY (p_lease_ids))
   ORDER BY a.id FOR NO KEY UPDATE;
  RETURN QUERY
  WITH closed AS (
    UPDATE leases l SET status = 'closed', closed_at = v_now
     WHERE l.id = ANY (p_lease_ids) AND l.status = 'open'
    RETURNING l.id, l.account_id, l.amount
  ), released AS (
    UPDATE accounts a SET held = a.held - c.total, updated_at = v_now
      FROM (SELECT account_id, sum(amount)::int8 AS total FROM closed GROUP BY account_id) c
     WHERE a.id = c.account_id
  )
  SELECT c.id, c.amount FROM closed c;
END;
$$;

-- Settles holds taken from leases. Such a hold has no row until now: this writes it, already settled,
-- and a request id that has a hold row already is skipped (exactly once, as for open holds). The capture
-- is taken from the balance in full, as for any hold; it also uses up that much of the lease (as far as
-- the open lease still reserves it), so the account's available amount is unchanged by the settlement
-- and the unused part of the hold stays reserved in the lease for the next requests. The ledger gets a
-- capture row and the request its log row, as in billing_settle_holds. p_items is a JSON array of
-- { requestId, captureMicros, leaseId, holdMicros, takenAtMs, expiresAtMs, keyId, accountId, model,
-- route, log columns… }. Returns the request ids it settled.
CREATE FUNCTION settle_leased_holds(p_items jsonb) RETURNS TABLE (request_id text)
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
        "requestId" text, "captureMicros" int8, "leaseId" text, "holdMicros" int8, "takenAtMs" int8,
        "expiresAtMs" int8, "keyId" text, "accountId" text, "model" text, "channelId" text, "route" text,
        "httpStatus" int4, "endReason" text, "latencyMs" int4, "ttfbMs" int4, "inputTokens" int4,
        "outputTokens" int4, "attempts" int4)
  ), settled AS (
    INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at,
                       settled_at, lease_id)
    SELECT i."requestId", i."accountId", i."keyId", i."model", i."route", i."holdMicros", 'settled',
           to_timestamp(i."takenAtMs" / 1000.0) AT TIME ZONE 'UTC',
           to_timestamp(i."expiresAtMs" / 1000.0) AT TIME ZONE 'UTC', v_now, i."leaseId"
      FROM input i
    ON CONFLICT (request_id) DO NOTHING
    RETURNING holds.request_id
  ), applied AS (
    SELECT i.* FROM input i JOIN settled s ON s.request_id = i."requestId"
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
  ), logged AS (
    INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                              latency_ms, ttfb_ms, input_tokens, output_tokens, cost_micros, attempts, created_at)
    SELECT a."requestId", a."keyId", a."accountId", a."model", a."channelId", a."route", a."httpStatus",
           a."endReason", a."latencyMs", a."ttfbMs", a."inputTokens", a."outputTokens", a."captureMicros",
           a."attempts", v_now
      FROM applied a
    ON CONFLICT (request_id) DO NOTHING
  )
  SELECT a."requestId" FROM applied a;
END;
$$;
