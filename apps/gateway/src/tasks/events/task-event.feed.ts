import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { taskEventOfRow, type TaskEvent, type TaskEventRow } from './task-event';

/** Rows read per task and poll: a task that changed more is read on at the next poll. */
const EVENTS_PER_TASK_AND_POLL = 100;
/** A failing poll is logged once per this long, not at every tick. */
const FAILURE_LOG_INTERVAL_MS = 30_000;

/**
 * The instance's one reader of task changes: while any stream is open, one query per `pollMs` reads
 * the events recorded after each followed task's cursor (index task_events(task_id, seq)), however
 * many streams follow each task, and hands them over in order. Per-task cursors, not one global one:
 * `seq` grows in commit order for one task (its row lock orders its writers) but not across tasks, so
 * a global cursor could step over a change that commits late. A failed poll changes no cursor: the
 * next one reads the same events, so an outage of the database delays events and loses none.
 */
export class TaskEventFeed {
  private readonly cursors = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private lastFailureLoggedAt = 0;

  constructor(
    private readonly pool: Pool,
    private readonly pollMs: number,
    private readonly deliver: (event: TaskEvent) => void,
    private readonly logger: Logger,
  ) {}

  /** Follows the task from `afterSeq` on (kept when already followed: its streams caught up themselves). */
  follow(taskId: string, afterSeq: number): void {
    if (!this.cursors.has(taskId)) this.cursors.set(taskId, afterSeq);
    this.timer ??= setInterval(() => void this.poll(), this.pollMs);
  }

  unfollow(taskId: string): void {
    this.cursors.delete(taskId);
    if (this.cursors.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One read of every followed task's new events; skipped while the previous one still runs. */
  async poll(): Promise<void> {
    if (this.polling || this.cursors.size === 0) return;
    this.polling = true;
    try {
      const followed = [...this.cursors];
      const { rows } = await this.pool.query<TaskEventRow>(
        `SELECT e.seq::text AS seq, e.task_id, e.status, e.progress
           FROM unnest($1::text[], $2::bigint[]) AS followed(task_id, after_seq)
           CROSS JOIN LATERAL (
             SELECT seq, task_id, status, progress FROM task_events
              WHERE task_id = followed.task_id AND seq > followed.after_seq
              ORDER BY seq LIMIT ${EVENTS_PER_TASK_AND_POLL}) AS e
          ORDER BY e.seq`,
        [followed.map(([taskId]) => taskId), followed.map(([, seq]) => seq)],
      );
      for (const row of rows) {
        const event = taskEventOfRow(row);
        if (!event) continue;
        // Unfollowed meanwhile (its last stream ended): nobody to hand it to.
        if (!this.cursors.has(event.taskId)) continue;
        this.cursors.set(event.taskId, Math.max(this.cursors.get(event.taskId) ?? 0, event.seq));
        this.deliver(event);
      }
    } catch (error) {
      if (Date.now() - this.lastFailureLoggedAt >= FAILURE_LOG_INTERVAL_MS) {
        this.lastFailureLoggedAt = Date.now();
        this.logger.warn({ err: error }, 'reading task events failed; the next poll reads them again');
      }
    } finally {
      this.polling = false;
    }
  }
}
