-- Governance of keys and accounts (docs/governance.md): limits, budgets and IP allow-lists on keys and
-- accounts; budget spend per period; outstanding-task counts; what each admitted request reserved.
ALTER TABLE "accounts" ADD COLUMN "limits" JSONB,
ADD COLUMN "budget_micros" BIGINT,
ADD COLUMN "budget_period" TEXT;

ALTER TABLE "api_keys" ADD COLUMN "limits" JSONB,
ADD COLUMN "budget_micros" BIGINT,
ADD COLUMN "budget_period" TEXT,
ADD COLUMN "allowed_ips" TEXT[] DEFAULT ARRAY[]::TEXT[];

CREATE TABLE "budget_usage" (
    "scope" TEXT NOT NULL,
    "period_start" TIMESTAMP(3) NOT NULL,
    "spent" BIGINT NOT NULL DEFAULT 0,
    "reserved" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "budget_usage_pkey" PRIMARY KEY ("scope","period_start")
);

CREATE TABLE "outstanding_task_counts" (
    "scope" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "outstanding_task_counts_pkey" PRIMARY KEY ("scope")
);

CREATE TABLE "governance_reservations" (
    "request_id" TEXT NOT NULL,
    "task_id" TEXT,
    "key_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "key_period" TIMESTAMP(3),
    "account_period" TIMESTAMP(3),
    "key_task_slot" BOOLEAN NOT NULL DEFAULT false,
    "account_task_slot" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "governance_reservations_pkey" PRIMARY KEY ("request_id")
);

CREATE UNIQUE INDEX "governance_reservations_task_id_key" ON "governance_reservations"("task_id");
CREATE INDEX "governance_reservations_expires_at_idx" ON "governance_reservations"("expires_at");

-- Reserves a request's budget share and task slots, all or nothing, in one round trip. Returns NULL
-- when reserved, else what refused it: 'budget:key', 'budget:account', 'tasks:key' or 'tasks:account'.
-- A NULL limit does not apply. Rows are locked in one order (key budget, account budget, key tasks,
-- account tasks) here and in governance_settle, so concurrent admissions and settlements queue instead
-- of deadlocking; every check runs on the locked (latest) row, so concurrent requests never overspend.
CREATE FUNCTION governance_reserve(
  p_request_id text, p_key_id text, p_account_id text, p_amount int8,
  p_key_budget int8, p_key_period timestamp, p_account_budget int8, p_account_period timestamp,
  p_key_tasks int4, p_account_tasks int4, p_expires_at timestamp
) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_used int8;
  v_count int4;
BEGIN
  IF p_key_budget IS NOT NULL THEN
    INSERT INTO budget_usage (scope, period_start) VALUES ('k:' || p_key_id, p_key_period) ON CONFLICT DO NOTHING;
    SELECT spent + reserved INTO v_used FROM budget_usage
     WHERE scope = 'k:' || p_key_id AND period_start = p_key_period FOR UPDATE;
    IF v_used + p_amount > p_key_budget THEN RETURN 'budget:key'; END IF;
  END IF;
  IF p_account_budget IS NOT NULL THEN
    INSERT INTO budget_usage (scope, period_start) VALUES ('a:' || p_account_id, p_account_period) ON CONFLICT DO NOTHING;
    SELECT spent + reserved INTO v_used FROM budget_usage
     WHERE scope = 'a:' || p_account_id AND period_start = p_account_period FOR UPDATE;
    IF v_used + p_amount > p_account_budget THEN RETURN 'budget:account'; END IF;
  END IF;
  IF p_key_tasks IS NOT NULL THEN
    INSERT INTO outstanding_task_counts (scope) VALUES ('k:' || p_key_id) ON CONFLICT DO NOTHING;
    SELECT count INTO v_count FROM outstanding_task_counts WHERE scope = 'k:' || p_key_id FOR UPDATE;
    IF v_count + 1 > p_key_tasks THEN RETURN 'tasks:key'; END IF;
  END IF;
  IF p_account_tasks IS NOT NULL THEN
    INSERT INTO outstanding_task_counts (scope) VALUES ('a:' || p_account_id) ON CONFLICT DO NOTHING;
    SELECT count INTO v_count FROM outstanding_task_counts WHERE scope = 'a:' || p_account_id FOR UPDATE;
    IF v_count + 1 > p_account_tasks THEN RETURN 'tasks:account'; END IF;
  END IF;
  IF p_key_budget IS NOT NULL THEN
    UPDATE budget_usage SET reserved = reserved + p_amount
     WHERE scope = 'k:' || p_key_id AND period_start = p_key_period;
  END IF;
  IF p_account_budget IS NOT NULL THEN
    UPDATE budget_usage SET reserved = reserved + p_amount
     WHERE scope = 'a:' || p_account_id AND period_start = p_account_period;
  END IF;
  IF p_key_tasks IS NOT NULL THEN
    UPDATE outstanding_task_counts SET count = count + 1 WHERE scope = 'k:' || p_key_id;
  END IF;
  IF p_account_tasks IS NOT NULL THEN
    UPDATE outstanding_task_counts SET count = count + 1 WHERE scope = 'a:' || p_account_id;
  END IF;
  INSERT INTO governance_reservations (request_id, key_id, account_id, amount, key_period, account_period,
                                       key_task_slot, account_task_slot, expires_at)
  VALUES (p_request_id, p_key_id, p_account_id, p_amount,
          CASE WHEN p_key_budget IS NULL THEN NULL ELSE p_key_period END,
          CASE WHEN p_account_budget IS NULL THEN NULL ELSE p_account_period END,
          p_key_tasks IS NOT NULL, p_account_tasks IS NOT NULL, p_expires_at);
  RETURN NULL;
END $$;

-- Settles one reservation, found by request id or else by task id, exactly once (the row is deleted):
-- the budgets' reservation becomes the captured amount (which may exceed it), the task slots are freed.
-- Returns whether this call settled it.
CREATE FUNCTION governance_settle(p_request_id text, p_task_id text, p_capture int8) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  r governance_reservations%ROWTYPE;
BEGIN
  IF p_request_id IS NOT NULL THEN
    DELETE FROM governance_reservations WHERE request_id = p_request_id RETURNING * INTO r;
  ELSE
    DELETE FROM governance_reservations WHERE task_id = p_task_id RETURNING * INTO r;
  END IF;
  IF NOT FOUND THEN RETURN false; END IF;
  IF r.key_period IS NOT NULL THEN
    UPDATE budget_usage SET reserved = greatest(0, reserved - r.amount), spent = spent + p_capture
     WHERE scope = 'k:' || r.key_id AND period_start = r.key_period;
  END IF;
  IF r.account_period IS NOT NULL THEN
    UPDATE budget_usage SET reserved = greatest(0, reserved - r.amount), spent = spent + p_capture
     WHERE scope = 'a:' || r.account_id AND period_start = r.account_period;
  END IF;
  IF r.key_task_slot THEN
    UPDATE outstanding_task_counts SET count = greatest(0, count - 1) WHERE scope = 'k:' || r.key_id;
  END IF;
  IF r.account_task_slot THEN
    UPDATE outstanding_task_counts SET count = greatest(0, count - 1) WHERE scope = 'a:' || r.account_id;
  END IF;
  RETURN true;
END $$;

-- What a settled task captured, shown on its task object (cost_micros); null until settled.
ALTER TABLE "tasks" ADD COLUMN "cost_micros" BIGINT;

-- After a task's settlement (its hold's, whose request log holds the capture; or none without a hold):
-- writes the task's cost and settles the budget reservation and task slot it took, each exactly once.
-- The task is named by its id or, failing that, by its hold's request id (a /bt image task's hold is
-- its request's). Safe to run again (a settlement re-run after a crash). Returns whether it settled a
-- reservation.
CREATE FUNCTION task_settlement_recorded(p_task_id text, p_hold_request_id text) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_cost int8;
  v_task_id text;
BEGIN
  IF p_hold_request_id IS NULL THEN
    v_cost := 0;
  ELSE
    SELECT cost_micros INTO v_cost FROM request_logs WHERE request_id = p_hold_request_id;
    IF NOT FOUND THEN RETURN false; END IF;
  END IF;
  SELECT id INTO v_task_id FROM tasks WHERE id = p_task_id;
  IF v_task_id IS NULL AND p_hold_request_id IS NOT NULL THEN
    SELECT id INTO v_task_id FROM tasks WHERE hold_request_id = p_hold_request_id LIMIT 1;
  END IF;
  IF v_task_id IS NULL THEN RETURN false; END IF;
  UPDATE tasks SET cost_micros = v_cost WHERE id = v_task_id AND cost_micros IS NULL;
  RETURN governance_settle(NULL, v_task_id, v_cost);
END $$;

-- The gateway's side of a task's reservation, right after it linked the reservation to the task
-- (docs/governance.md, "Tasks"): settles it now if the task's settlement already ran (its hold's request
-- log exists, or, for a task without a hold, it is finished); otherwise the worker's
-- task_settlement_recorded will, since it runs after the link is committed.
CREATE FUNCTION governance_settle_task(p_task_id text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_hold text;
  v_status text;
BEGIN
  SELECT hold_request_id, status INTO v_hold, v_status FROM tasks WHERE id = p_task_id;
  IF NOT FOUND THEN RETURN false; END IF;
  IF v_hold IS NULL AND v_status NOT IN ('completed', 'failed', 'cancelled') THEN RETURN false; END IF;
  RETURN task_settlement_recorded(p_task_id, v_hold);
END $$;
