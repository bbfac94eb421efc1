-- take_holds, rewritten for two reasons.
--
-- 1. A batch locks and updates each account row once instead of once per hold. Updating the same row
-- many times in one transaction left a chain of row versions that every later update and foreign-key
-- check had to walk; with one account behind many requests (the common case) that was half of
-- Postgres's CPU per request. The decisions are unchanged: holds are decided in the order given, each
-- against what the holds before it left available, so a batch can never overspend. The account row is
-- locked (FOR NO KEY UPDATE, the lock its UPDATE takes anyway) before it is read, so concurrent batches
-- serialise on it, and callers still sort by account so that batches lock accounts in one order.
--
-- 2. The ledger records money that moves: credits and captures. A hold is a reservation, not a
-- movement: it lives in the holds table (amount fixed, status changed by compare-and-swap), and the
-- account's `held` is the sum of its open holds. Writing a `hold` row when a hold was taken (and a
-- `release` row when it was settled, see settle-holds.statement.ts) tripled the ledger rows of a
-- request, each with four indexes, for no money that moved. Rows of those kinds written before stay as
-- history.
CREATE OR REPLACE FUNCTION take_holds(
  p_request_ids text[],
  p_account_ids text[],
  p_key_ids text[],
  p_models text[],
  p_routes text[],
  p_amounts int8[],
  p_ttl_ms int8[]
) RETURNS TABLE (request_id text, taken boolean, available text)
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamp := now() AT TIME ZONE 'UTC';
  v_count int := coalesce(array_length(p_request_ids, 1), 0);
  v_taken boolean[] := array_fill(false, ARRAY[v_count]);
  v_refused_available int8[] := array_fill(NULL::int8, ARRAY[v_count]);
  v_account text := NULL;
  v_available int8;
  v_account_total int8 := 0;
BEGIN
  FOR i IN 1 .. v_count LOOP
    IF v_account IS DISTINCT FROM p_account_ids[i] THEN
      IF v_account_total > 0 THEN
        UPDATE accounts SET held = held + v_account_total, updated_at = v_now WHERE id = v_account;
      END IF;
      v_account := p_account_ids[i];
      v_account_total := 0;
      -- NULL for an unknown account: every hold for it is refused with no amount available.
      SELECT a.balance - a.held + a.overdraft_limit INTO v_available
        FROM accounts a WHERE a.id = v_account FOR NO KEY UPDATE;
    END IF;
    IF v_available >= p_amounts[i] THEN
      v_available := v_available - p_amounts[i];
      v_account_total := v_account_total + p_amounts[i];
      v_taken[i] := true;
    ELSE
      v_refused_available[i] := v_available;
    END IF;
  END LOOP;
  IF v_account_total > 0 THEN
    UPDATE accounts SET held = held + v_account_total, updated_at = v_now WHERE id = v_account;
  END IF;

  INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at)
  SELECT p_request_ids[k], p_account_ids[k], p_key_ids[k], p_models[k], p_routes[k], p_amounts[k], 'open',
         v_now, v_now + p_ttl_ms[k] * interval '1 millisecond'
    FROM generate_subscripts(p_request_ids, 1) AS k
   WHERE v_taken[k];
  RETURN QUERY
  SELECT p_request_ids[k], v_taken[k], v_refused_available[k]::text
    FROM generate_subscripts(p_request_ids, 1) AS k
   ORDER BY k;
END;
$$;
