import type { TaskObjectStatus } from '@gateway/contracts';

/** One recorded change of a task's status or progress: a row of task_events (migration task_events). */
export interface TaskEvent {
  /** The event id a stream sends: grows with every change of one task, in commit order. */
  seq: number;
  taskId: string;
  status: TaskObjectStatus;
  progress: number;
}

const STATUSES: ReadonlySet<string> = new Set(['queued', 'processing', 'completed', 'failed', 'cancelled']);
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** The SSE event name of a change: the terminal status itself, `progress` for every other. */
export function taskEventName(status: TaskObjectStatus): 'progress' | 'completed' | 'failed' | 'cancelled' {
  return status === 'completed' || status === 'failed' || status === 'cancelled' ? status : 'progress';
}

export function isTerminalTaskEvent(event: Pick<TaskEvent, 'status'>): boolean {
  return TERMINAL.has(event.status);
}

/** A row of task_events as pg returns it (bigint as text). */
export interface TaskEventRow {
  seq: string;
  task_id: string;
  status: string;
  progress: number;
}

/** The event of a row; undefined for a row no writer of this gateway makes (an unknown status). */
export function taskEventOfRow(row: TaskEventRow): TaskEvent | undefined {
  const seq = Number(row.seq);
  if (!Number.isSafeInteger(seq) || seq < 1 || !STATUSES.has(row.status)) return undefined;
  if (!Number.isInteger(row.progress) || row.task_id === '') return undefined;
  return { seq, taskId: row.task_id, status: row.status as TaskObjectStatus, progress: row.progress };
}
