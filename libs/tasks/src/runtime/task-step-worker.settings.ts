import type { QueueName } from '../queue-names';

export const TASK_STEP_WORKER_SETTINGS = Symbol('TASK_STEP_WORKER_SETTINGS');

export interface TaskStepWorkerSettings {
  queue: QueueName;
  /** Step jobs in flight at once in this process. */
  concurrency: number;
  overdueSweepIntervalMs: number;
}
