import type { Pool } from 'pg';
import { TERMINAL_TASK_STATUSES } from './task-status';

/** Rows one statement touches: a short transaction that never locks a large part of the table. */
const DEFAULT_BATCH = 500;
/** Batches of one run at most, so that one run of a large backlog ends and the next one goes on. */
const DEFAULT_MAX_BATCHES = 100;

/**
 * Finished tasks older than `$2` days at `$1` (timestamps are UTC wall times, as Prisma writes them)
 * whose hold is not open: the settlement of a finished task may still be due (a worker died between
 * the terminal transition and the settlement; see StrandedTaskSweep), and it reads the row. `updated_at`
 * is the last write, the terminal transition or the settlement. No ORDER BY: any old rows will do,
 * and a sort would read the whole backlog per batch. SKIP LOCKED: a row being written is left for the
 * next batch, and two sweeps never wait on each other.
 */
const SWEEPABLE = `
  SELECT t.id FROM tasks t
   WHERE t.status = ANY($3::text[])
     AND t.updated_at < ($1::timestamptz AT TIME ZONE 'UTC') - make_interval(days => $2::int)
     AND NOT EXISTS (SELECT 1 FROM holds h WHERE h.request_id = t.hold_request_id AND h.status = 'open')`;

const deleteFinishedStatement = {
  name: 'tasks_retention_delete',
  text: `
  DELETE FROM tasks WHERE id IN (${SWEEPABLE} LIMIT $4::int FOR UPDATE OF t SKIP LOCKED)`,
};

/**
 * The request a finished task keeps once cleared: its top-level scalars (the family, mode, seconds,
 * resolution and action the answers still show) and short strings; the prompt, and every list or
 * object (images, metadata, extras, fields, submission), become empty values of their type, so that
 * the readers' type checks still hold.
 */
const clearRequestsStatement = {
  name: 'tasks_retention_clear_requests',
  text: `
  UPDATE tasks SET request_cleared_at = now() AT TIME ZONE 'UTC', request = (
    SELECT coalesce(jsonb_object_agg(entry.key, CASE
             WHEN jsonb_typeof(entry.value) = 'object' THEN '{}'::jsonb
             WHEN jsonb_typeof(entry.value) = 'array' THEN '[]'::jsonb
             WHEN jsonb_typeof(entry.value) = 'string'
                  AND (entry.key = 'prompt' OR octet_length(entry.value #>> '{}') > $5::int) THEN '""'::jsonb
             ELSE entry.value END), '{}'::jsonb)
      FROM jsonb_each(CASE WHEN jsonb_typeof(tasks.request) = 'object' THEN tasks.request ELSE '{}'::jsonb END)
           AS entry)
   WHERE id IN (${SWEEPABLE} AND t.request_cleared_at IS NULL LIMIT $4::int FOR UPDATE OF t SKIP LOCKED)`,
};

/** Strings of a cleared request longer than this (in bytes) are emptied: they are content, not labels. */
const KEPT_STRING_BYTES = 64;

export interface TaskRetentionDays {
  /** Finished rows are deleted this many days after their last write; 0 keeps them. */
  taskDays: number;
  /** Their stored request is cleared this many days after; 0 keeps it. */
  requestDays: number;
}

export interface TaskRetentionResult {
  deleted: number;
  cleared: number;
}

/**
 * Enforces the retention of finished tasks (docs/task-storage.md): deletes their rows, and clears the
 * requests they stored sooner, in batches. Only the task row goes: holds and ledger entries are kept
 * (no foreign key ties them to it), and a task whose hold is still open is never touched. Files the
 * gateway stored for a task (images answered as URLs) have their own retention in the object store.
 */
export class TaskRetentionSweep {
  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly batch = DEFAULT_BATCH,
    private readonly maxBatches = DEFAULT_MAX_BATCHES,
  ) {}

  async run(days: TaskRetentionDays, now: Date = new Date()): Promise<TaskRetentionResult> {
    const deleted = days.taskDays > 0 ? await this.repeat(deleteFinishedStatement, days.taskDays, now) : 0;
    const cleared =
      days.requestDays > 0
        ? await this.repeat(clearRequestsStatement, days.requestDays, now, [KEPT_STRING_BYTES])
        : 0;
    return { deleted, cleared };
  }

  private async repeat(
    statement: { name: string; text: string },
    days: number,
    now: Date,
    extra: unknown[] = [],
  ): Promise<number> {
    const values = [now.toISOString(), days, [...TERMINAL_TASK_STATUSES], this.batch, ...extra];
    let total = 0;
    for (let batches = 0; batches < this.maxBatches; batches++) {
      const { rowCount } = await this.pool.query({ ...statement, values });
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < this.batch) break;
    }
    return total;
  }
}
