/** Lifecycle of an asynchronous task, as stored in `tasks.status` and shown to clients. */
export const TASK_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;

export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a task never leaves: the writer that reaches one settles or releases the hold. */
export const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * Every allowed status change. `queued → completed` is absent on purpose: a task completes only
 * after a worker claimed it (`processing`) and an upstream reported its outcome.
 */
export const TASK_TRANSITIONS: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  queued: ['processing', 'failed', 'cancelled'],
  processing: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

export function isTaskStatus(value: string): value is TaskStatus {
  return (TASK_STATUSES as readonly string[]).includes(value);
}

export function isTerminalTaskStatus(status: string): boolean {
  return isTaskStatus(status) && TERMINAL_TASK_STATUSES.has(status);
}

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return TASK_TRANSITIONS[from].includes(to);
}
