import type { Pool } from 'pg';
import { taskEventOfRow, type TaskEvent, type TaskEventRow } from './task-event';

/** More than any task records while one stream is away (each is a progress step or a status change). */
const REPLAY_LIMIT = 1_000;
/** Rows deleted per prune statement, so that a long backlog never holds a long lock. */
const PRUNE_BATCH = 5_000;

/** The recorded changes of tasks (table task_events, written by the database's trigger). */
export class TaskEventHistory {
  constructor(private readonly pool: Pool) {}

  /** The task's events after `afterSeq`, oldest first: what a resumed stream has not seen. */
  async since(taskId: string, afterSeq: number): Promise<TaskEvent[]> {
    const { rows } = await this.pool.query<TaskEventRow>(
      `SELECT seq::text AS seq, task_id, status, progress FROM task_events
        WHERE task_id = $1 AND seq > $2 ORDER BY task_events.seq LIMIT ${REPLAY_LIMIT}`,
      [taskId, afterSeq],
    );
    return rows.flatMap((row) => taskEventOfRow(row) ?? []);
  }

  /** The task's last event: the state a new stream starts from. */
  async latest(taskId: string): Promise<TaskEvent | undefined> {
    const { rows } = await this.pool.query<TaskEventRow>(
      `SELECT seq::text AS seq, task_id, status, progress FROM task_events
        WHERE task_id = $1 ORDER BY task_events.seq DESC LIMIT 1`,
      [taskId],
    );
    return rows[0] === undefined ? undefined : taskEventOfRow(rows[0]);
  }

  /** Deletes one batch of events older than `hours`; the number deleted. */
  async prune(hours: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM task_events WHERE seq IN (
         SELECT seq FROM task_events WHERE created_at < CURRENT_TIMESTAMP - make_interval(hours => $1)
          ORDER BY created_at LIMIT ${PRUNE_BATCH})`,
      [hours],
    );
    return rowCount ?? 0;
  }
}
