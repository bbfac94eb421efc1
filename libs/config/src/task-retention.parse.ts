import type { EnvironmentReader } from './environment-reader';
import type { TaskRetention } from './gateway-config';

const DEFAULT_TASK_RETENTION_DAYS = 90;
const DEFAULT_REQUEST_RETENTION_DAYS = 30;
/** Thirty years: past any policy, and within what a timestamp subtraction keeps exact. */
const MAX_RETENTION_DAYS = 10_950;

/**
 * TASK_RETENTION_DAYS (finished task rows are deleted that long after they finished) and
 * TASK_REQUEST_RETENTION_DAYS (their stored request is cleared sooner), 0 keeping them for ever;
 * TASK_RETENTION_SWEEP_INTERVAL_MS, how often worker-text enforces both. A request retention longer
 * than the row's has no effect: the row goes first, which the check below says.
 */
export function parseTaskRetention(reader: EnvironmentReader): TaskRetention {
  const bounds = { min: 0, max: MAX_RETENTION_DAYS };
  const taskDays = reader.integer('TASK_RETENTION_DAYS', DEFAULT_TASK_RETENTION_DAYS, bounds);
  const requestDays = reader.integer('TASK_REQUEST_RETENTION_DAYS', DEFAULT_REQUEST_RETENTION_DAYS, bounds);
  if (taskDays > 0 && requestDays > taskDays) {
    reader.addProblem(
      `TASK_REQUEST_RETENTION_DAYS (${requestDays}) must not exceed TASK_RETENTION_DAYS (${taskDays}): the row is deleted first`,
    );
  }
  return {
    taskDays,
    requestDays,
    sweepIntervalMs: reader.integer('TASK_RETENTION_SWEEP_INTERVAL_MS', 600_000, { min: 1_000 }),
  };
}
