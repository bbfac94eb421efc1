import type { Environment } from '@gateway/config';
import type { QueueName } from '../queue-names';
import { DEFAULT_TASK_STEP_TIMING, type TaskStepTiming } from '../task/task-step.types';
import { readPositiveInteger } from './worker-environment.util';

export const TASK_STEP_WORKER_SETTINGS = Symbol('TASK_STEP_WORKER_SETTINGS');

export interface TaskStepWorkerSettings {
  queue: QueueName;
  /** Step jobs in flight at once in this process. */
  concurrency: number;
  overdueSweepIntervalMs: number;
  strandedSweepIntervalMs: number;
  /** How long an open task must have gone unwritten before the stranded sweep looks for its job. */
  strandedAfterMs: number;
}

const DAY_MS = 86_400_000;
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/** Well past a fresh row's enqueue, so the sweep rarely looks at a task whose first job is on its way. */
const DEFAULT_STRANDED_AFTER_MS = 120_000;

/** The sweeps' settings from the environment, for an operator (or a fault test of the built app). */
export function readSweepSettings(
  env: Environment,
): Pick<TaskStepWorkerSettings, 'overdueSweepIntervalMs' | 'strandedSweepIntervalMs' | 'strandedAfterMs'> {
  const intervalMs = readPositiveInteger(env, 'TASK_SWEEP_INTERVAL_MS', DEFAULT_SWEEP_INTERVAL_MS, DAY_MS);
  return {
    overdueSweepIntervalMs: intervalMs,
    strandedSweepIntervalMs: intervalMs,
    strandedAfterMs: readPositiveInteger(env, 'TASK_STRANDED_AFTER_MS', DEFAULT_STRANDED_AFTER_MS, DAY_MS),
  };
}

/** The step processor's timing from the environment; the defaults where a variable is unset. */
export function readTaskStepTiming(env: Environment): TaskStepTiming {
  const minPollDelayMs = readPositiveInteger(
    env,
    'TASK_MIN_POLL_DELAY_MS',
    DEFAULT_TASK_STEP_TIMING.minPollDelayMs,
    DAY_MS,
  );
  return {
    minPollDelayMs,
    maxPollDelayMs: Math.max(
      minPollDelayMs,
      readPositiveInteger(env, 'TASK_MAX_POLL_DELAY_MS', DEFAULT_TASK_STEP_TIMING.maxPollDelayMs, DAY_MS),
    ),
    submissionTimeoutMs: readPositiveInteger(
      env,
      'TASK_SUBMISSION_TIMEOUT_MS',
      DEFAULT_TASK_STEP_TIMING.submissionTimeoutMs,
      DAY_MS,
    ),
    progressWriteIntervalMs: readPositiveInteger(
      env,
      'TASK_PROGRESS_WRITE_INTERVAL_MS',
      DEFAULT_TASK_STEP_TIMING.progressWriteIntervalMs,
      DAY_MS,
    ),
  };
}
