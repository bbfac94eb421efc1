import type { Task } from '@gateway/db';
import type { JsonHandle } from './json-value';

/**
 * What polling a `processing` task takes, carried in its step job's data (TaskStepJob.poll) so that a
 * poll which finds nothing new reads no row and writes nothing: the row is read again only when the
 * answer changes something (progress moved, terminal, failure), at the deadline, and every
 * ROW_RECHECK_MS. The snapshot never decides a write: every write is still a compare-and-swap on the
 * row's status, so a stale snapshot (a client cancelled, a query stepped the task) loses it.
 */
export interface TaskPollSnapshot {
  handle: JsonHandle;
  channelId: string;
  model: string;
  kind: string;
  createdAtMs: number;
  deadlineAtMs: number;
  /** The progress the row holds as far as this snapshot knows; a poll answering another one reads the row. */
  progress: number;
  /**
   * When that progress was written, as far as the snapshot knows (the row's last write when it was
   * read): a new progress is written only TASK_PROGRESS_WRITE_INTERVAL_MS after it (progressWriteDue).
   */
  progressWrittenAtMs: number;
  /** When the row was last read: bounds how long a cancelled task can go on being polled. */
  rowReadAtMs: number;
}

/**
 * A snapshot older than this is checked against the row before the next poll: a task cancelled or
 * finished by someone else stops being polled within it, at one read per this period (a poll every
 * second or more, so well under one statement per ten polls).
 */
export const ROW_RECHECK_MS = 30_000;

/**
 * Whether an upstream's progress is written now over the progress the row holds: only when it differs
 * and at least `intervalMs` (TASK_PROGRESS_WRITE_INTERVAL_MS) passed since the last write of it.
 * Upstreams whose progress follows the clock answer a new value at every poll, and a progress write is
 * a statement and a task_events row (the tasks trigger): this bounds those to one per task per
 * interval, however often the task is polled, and a poll within it writes nothing. The end of a task is
 * never held back: a terminal transition always writes (with progress 100 when completed).
 */
export function progressWriteDue(
  stored: number,
  answered: number,
  writtenAtMs: number,
  nowMs: number,
  intervalMs: number,
): boolean {
  return answered !== stored && nowMs - writtenAtMs >= intervalMs;
}

/** The fields of a task that polling and binding its adapter read, as a snapshot rebuilds them. */
export type PolledTask = Pick<Task, 'id' | 'channelId' | 'model' | 'kind' | 'createdAt' | 'deadlineAt'>;

/**
 * The snapshot of a row just read (or written). Its progress counts as written at the row's last write
 * (`updatedAt`): the last progress write or a later write of another column (the handle's), so the
 * interval since the last progress write is never cut short, and both the row and the snapshot path
 * count it from the same moment.
 */
export function pollSnapshotOf(
  task: Pick<Task, 'channelId' | 'model' | 'kind' | 'createdAt' | 'deadlineAt' | 'progress' | 'updatedAt'>,
  handle: JsonHandle,
  rowReadAtMs: number,
): TaskPollSnapshot | undefined {
  if (task.channelId === null) return undefined;
  return {
    handle,
    channelId: task.channelId,
    model: task.model,
    kind: task.kind,
    createdAtMs: task.createdAt.getTime(),
    deadlineAtMs: task.deadlineAt.getTime(),
    progress: task.progress,
    progressWrittenAtMs: task.updatedAt.getTime(),
    rowReadAtMs,
  };
}

export function polledTaskOf(taskId: string, snapshot: TaskPollSnapshot): PolledTask {
  return {
    id: taskId,
    channelId: snapshot.channelId,
    model: snapshot.model,
    kind: snapshot.kind,
    createdAt: new Date(snapshot.createdAtMs),
    deadlineAt: new Date(snapshot.deadlineAtMs),
  };
}

/** Job data is JSON from Redis: a snapshot that does not have the expected shape is ignored (the row is read). */
export function isTaskPollSnapshot(value: unknown): value is TaskPollSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const snapshot = value as Partial<Record<keyof TaskPollSnapshot, unknown>>;
  return (
    snapshot.handle !== undefined &&
    snapshot.handle !== null &&
    typeof snapshot.channelId === 'string' &&
    typeof snapshot.model === 'string' &&
    typeof snapshot.kind === 'string' &&
    typeof snapshot.createdAtMs === 'number' &&
    typeof snapshot.deadlineAtMs === 'number' &&
    typeof snapshot.progress === 'number' &&
    typeof snapshot.progressWrittenAtMs === 'number' &&
    typeof snapshot.rowReadAtMs === 'number'
  );
}
