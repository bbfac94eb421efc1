import type { Pool } from 'pg';

/** What refused a reservation: a budget or an outstanding-task limit, of the key or of the account. */
export type ReservationRefusal = 'budget:key' | 'budget:account' | 'tasks:key' | 'tasks:account';

export interface ReservationInput {
  requestId: string;
  keyId: string;
  accountId: string;
  /** What the request may cost (its hold); reserved against each budget that applies. */
  amountMicros: bigint;
  /** The key's budget in its current period, when it has one (period start, epoch ms). */
  keyBudget?: { micros: bigint; periodStart: number };
  accountBudget?: { micros: bigint; periodStart: number };
  /** Outstanding-task limits, when the request creates a task. */
  keyTasks?: number;
  accountTasks?: number;
  /** When the sweep may settle a reservation nobody settled. */
  expiresAt: number;
}

export interface BudgetFigures {
  spentMicros: bigint;
  reservedMicros: bigint;
}

const reserveStatement = {
  name: 'governance_reserve',
  text: `SELECT governance_reserve($1, $2, $3, $4, $5, to_timestamp($6 / 1000.0) AT TIME ZONE 'UTC', $7,
                               to_timestamp($8 / 1000.0) AT TIME ZONE 'UTC', $9, $10,
                               to_timestamp($11 / 1000.0) AT TIME ZONE 'UTC') AS refusal`,
};
const settleStatement = {
  name: 'governance_settle',
  text: 'SELECT governance_settle($1, NULL, $2) AS settled',
};
const linkTaskStatement = {
  name: 'governance_link_task',
  text: `UPDATE governance_reservations
            SET task_id = $2, expires_at = greatest(expires_at, to_timestamp($3 / 1000.0) AT TIME ZONE 'UTC')
          WHERE request_id = $1`,
};
const settleTaskStatement = {
  name: 'governance_settle_task',
  text: 'SELECT governance_settle_task($1) AS settled',
};
const taskSettledStatement = {
  name: 'task_settlement_recorded',
  text: 'SELECT task_settlement_recorded($1, $2) AS settled',
};
/** task_settlement_recorded for many tasks, in one statement: one per task, in the order given. */
const tasksSettledStatement = {
  name: 'task_settlements_recorded',
  text: `SELECT task_settlement_recorded(s.task_id, s.hold_request_id) AS settled
           FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS s(task_id, hold_request_id, position)
          ORDER BY s.position`,
};
const sweepStatement = {
  name: 'governance_sweep',
  text: `SELECT governance_settle(r.request_id, NULL, coalesce(l.cost_micros, 0)) AS settled
           FROM (SELECT request_id, task_id FROM governance_reservations
                  WHERE expires_at < to_timestamp($1 / 1000.0) AT TIME ZONE 'UTC'
                  ORDER BY expires_at LIMIT $2) r
           LEFT JOIN tasks t ON t.id = r.task_id
           LEFT JOIN request_logs l ON l.request_id = coalesce(t.hold_request_id, r.task_id, r.request_id)`,
};

/**
 * Budgets and outstanding-task counts in Postgres (migration key_and_account_governance): exact under
 * concurrency, and enforced whether or not Redis answers. Each admitted request that a budget or an
 * outstanding-task limit governs reserves its share in one round trip (governance_reserve) and releases
 * it exactly once: with its captured cost when it ends, or, when it created a task, when the task's
 * hold is settled (settleTask, called both by the worker that settles the task and by the gateway
 * right after linking: whichever runs second finds the other's write, see docs/governance.md).
 */
export class GovernanceReservations {
  constructor(private readonly pool: Pool) {}

  async reserve(input: ReservationInput): Promise<ReservationRefusal | null> {
    const { rows } = await this.pool.query<{ refusal: ReservationRefusal | null }>({
      ...reserveStatement,
      values: [
        input.requestId,
        input.keyId,
        input.accountId,
        input.amountMicros.toString(),
        input.keyBudget?.micros.toString() ?? null,
        input.keyBudget?.periodStart ?? 0,
        input.accountBudget?.micros.toString() ?? null,
        input.accountBudget?.periodStart ?? 0,
        input.keyTasks ?? null,
        input.accountTasks ?? null,
        input.expiresAt,
      ],
    });
    return rows[0]?.refusal ?? null;
  }

  /** Settles a request's reservation with what it captured; false when it was settled before. */
  async settle(requestId: string, capturedMicros: bigint): Promise<boolean> {
    const { rows } = await this.pool.query<{ settled: boolean }>({
      ...settleStatement,
      values: [requestId, capturedMicros.toString()],
    });
    return rows[0]?.settled ?? false;
  }

  /**
   * Hands a request's reservation over to the task it created, then settles it at once if the task's
   * hold was settled already (a fast task). Two statements on purpose: the link must be committed
   * before the check, so that a worker settling the task meanwhile finds the link.
   */
  async handOverToTask(requestId: string, taskId: string, expiresAt: number): Promise<void> {
    await this.pool.query({ ...linkTaskStatement, values: [requestId, taskId, expiresAt] });
    await this.settleTask(taskId);
  }

  /** Settles the reservation of a task whose hold is settled (its request log gives the capture). */
  async settleTask(taskId: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ settled: boolean }>({
      ...settleTaskStatement,
      values: [taskId],
    });
    return rows[0]?.settled ?? false;
  }

  /**
   * After a task's settlement (by the worker, the canceller or an early poll): writes the task's cost
   * (its hold's capture, 0 without a hold) and settles its reservation, each once. Returns whether the
   * reservation was settled by this call.
   */
  async taskSettled(taskId: string, holdRequestId: string | null): Promise<boolean> {
    const { rows } = await this.pool.query<{ settled: boolean }>({
      ...taskSettledStatement,
      values: [taskId, holdRequestId],
    });
    return rows[0]?.settled ?? false;
  }

  /** taskSettled for tasks settled together (a batch of settlements), in one statement. */
  async tasksSettled(tasks: readonly { taskId: string; holdRequestId: string | null }[]): Promise<void> {
    if (tasks.length === 0) return;
    await this.pool.query({
      ...tasksSettledStatement,
      values: [tasks.map((task) => task.taskId), tasks.map((task) => task.holdRequestId)],
    });
  }

  /** Settles up to `limit` reservations that expired unsettled (their process died); returns how many. */
  async sweepExpired(nowMs: number, limit = 500): Promise<number> {
    const { rows } = await this.pool.query<{ settled: boolean }>({
      ...sweepStatement,
      values: [nowMs, limit],
    });
    return rows.filter((row) => row.settled).length;
  }

  /** Spend of a scope's budget in the period starting at `periodStart`. */
  async budgetFigures(scope: string, periodStart: number): Promise<BudgetFigures> {
    const { rows } = await this.pool.query<{ spent: string; reserved: string }>({
      text: `SELECT spent::text, reserved::text FROM budget_usage
              WHERE scope = $1 AND period_start = to_timestamp($2 / 1000.0) AT TIME ZONE 'UTC'`,
      values: [scope, periodStart],
    });
    const row = rows[0];
    return { spentMicros: BigInt(row?.spent ?? '0'), reservedMicros: BigInt(row?.reserved ?? '0') };
  }

  async outstandingTasks(scope: string): Promise<number> {
    const { rows } = await this.pool.query<{ count: number }>({
      text: 'SELECT count FROM outstanding_task_counts WHERE scope = $1',
      values: [scope],
    });
    return rows[0]?.count ?? 0;
  }
}

/** The scope names the budget and task-count rows use. */
export const keyScope = (keyId: string): string => `k:${keyId}`;
export const accountScope = (accountId: string): string => `a:${accountId}`;
