import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { taskEventOfRow, type TaskEvent, type TaskEventRow } from './task-event';

/** Rows read per task and read: a task that changed more is read on at the next one. */
const EVENTS_PER_TASK_AND_READ = 100;
/** A failing read is logged once per this long, not at every one. */
const FAILURE_LOG_INTERVAL_MS = 30_000;

/** What the next read covers: every followed task (the fallback poll), or the tasks announced. */
type WantedTasks = 'all' | Set<string>;

/**
 * The instance's one reader of task changes. It reads the events recorded after each followed task's
 * cursor (index task_events(task_id, seq)), however many streams follow each task, and hands them over
 * in order: at once for the tasks an announcement names (`wake`, the changes writers publish on Redis
 * after their commit), and for every followed task once per `fallbackPollMs`, which delivers what a
 * lost announcement left behind. One read in flight at most; what is asked meanwhile is collected and
 * read next, in one query. Per-task cursors, not one global one: `seq` grows in commit order for one
 * task (its row lock orders its writers) but not across tasks, so a global cursor could step over a
 * change that commits late. A failed read changes no cursor: a later one reads the same events, so an
 * outage of the database delays events and loses none.
 */
export class TaskEventFeed {
  private readonly cursors = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private wanted: WantedTasks = new Set();
  private draining: Promise<void> | undefined;
  private lastFailureLoggedAt = 0;

  constructor(
    private readonly pool: Pool,
    private readonly fallbackPollMs: number,
    private readonly deliver: (event: TaskEvent) => void,
    private readonly logger: Logger,
  ) {}

  /** Follows the task from `afterSeq` on (kept when already followed: its streams caught up themselves). */
  follow(taskId: string, afterSeq: number): void {
    if (!this.cursors.has(taskId)) this.cursors.set(taskId, afterSeq);
    this.timer ??= setInterval(() => void this.poll(), this.fallbackPollMs);
  }

  unfollow(taskId: string): void {
    this.cursors.delete(taskId);
    if (this.cursors.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Changes of these tasks committed: reads those this instance follows, as soon as no read runs. */
  wake(taskIds: readonly string[]): void {
    const followed = taskIds.filter((taskId) => this.cursors.has(taskId));
    if (followed.length === 0) return;
    if (this.wanted !== 'all') for (const taskId of followed) this.wanted.add(taskId);
    void this.drain();
  }

  /** Reads every followed task's new events (the fallback poll; also after announcements may have been missed). */
  poll(): Promise<void> {
    if (this.cursors.size === 0) return Promise.resolve();
    this.wanted = 'all';
    return this.drain();
  }

  private drain(): Promise<void> {
    this.draining ??= this.readWhileWanted().finally(() => {
      this.draining = undefined;
      if (this.isWanted()) void this.drain();
    });
    return this.draining;
  }

  private async readWhileWanted(): Promise<void> {
    while (this.isWanted()) {
      const wanted = this.wanted;
      this.wanted = new Set();
      await this.read(wanted);
    }
  }

  private isWanted(): boolean {
    return this.wanted === 'all' ? this.cursors.size > 0 : this.wanted.size > 0;
  }

  private async read(wanted: WantedTasks): Promise<void> {
    const followed =
      wanted === 'all'
        ? [...this.cursors]
        : [...wanted].flatMap((taskId): Array<[string, number]> => {
            const cursor = this.cursors.get(taskId);
            return cursor === undefined ? [] : [[taskId, cursor]];
          });
    if (followed.length === 0) return;
    try {
      const { rows } = await this.pool.query<TaskEventRow>(
        `SELECT e.seq::text AS seq, e.task_id, e.status, e.progress
           FROM unnest($1::text[], $2::bigint[]) AS followed(task_id, after_seq)
           CROSS JOIN LATERAL (
             SELECT seq, task_id, status, progress FROM task_events
              WHERE task_id = followed.task_id AND seq > followed.after_seq
              ORDER BY seq LIMIT ${EVENTS_PER_TASK_AND_READ}) AS e
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
      // The tasks asked for are not asked again here (that would spin through an outage): the fallback
      // poll reads them with the rest.
      if (Date.now() - this.lastFailureLoggedAt >= FAILURE_LOG_INTERVAL_MS) {
        this.lastFailureLoggedAt = Date.now();
        this.logger.warn({ err: error }, 'reading task events failed; a later read reads them again');
      }
    }
  }
}
