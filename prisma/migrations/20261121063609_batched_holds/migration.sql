-- Takes many holds in one round trip. Each hold is decided on its own, in the order given (callers
-- sort by account so that concurrent batches lock accounts in the same order): the conditional UPDATE
-- takes the account's row lock and sees the holds taken before it, so a batch can never overspend.
CREATE FUNCTION take_holds(
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
  v_available int8;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_request_ids, 1), 0) LOOP
    request_id := p_request_ids[i];
    UPDATE accounts
       SET held = held + p_amounts[i], updated_at = v_now
     WHERE id = p_account_ids[i] AND balance - held + overdraft_limit >= p_amounts[i];
    IF FOUND THEN
      INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, created_at, expires_at)
      VALUES (p_request_ids[i], p_account_ids[i], p_key_ids[i], p_models[i], p_routes[i], p_amounts[i], 'open',
              v_now, v_now + p_ttl_ms[i] * interval '1 millisecond');
      INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, request_id, created_at)
      VALUES (p_account_ids[i], 'hold', p_amounts[i], 'hold:' || p_request_ids[i], p_request_ids[i], v_now);
      taken := true;
      available := NULL;
    ELSE
      SELECT a.balance - a.held + a.overdraft_limit INTO v_available FROM accounts a WHERE a.id = p_account_ids[i];
      taken := false;
      available := v_available::text;
    END IF;
    RETURN NEXT;
  END LOOP;
END;
$$;
