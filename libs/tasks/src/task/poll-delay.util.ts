import type { Task } from '@gateway/db';
import type { TaskStepTiming } from './task-step.types';

/** Without an upstream hint, wait a tenth of the task's age: quick answers early, few polls later. */
const AGE_FRACTION = 10;

/**
 * Delay before the next poll: the upstream's hint or a tenth of the task's age, within the timing
 * bounds, and never past the deadline so that an overdue task is failed on time.
 */
export function nextPollDelayMs(
  task: Pick<Task, 'createdAt' | 'deadlineAt'>,
  nowMs: number,
  timing: Pick<TaskStepTiming, 'minPollDelayMs' | 'maxPollDelayMs'>,
  upstreamHintMs?: number,
): number {
  const wanted = upstreamHintMs ?? (nowMs - task.createdAt.getTime()) / AGE_FRACTION;
  const bounded = Math.min(timing.maxPollDelayMs, Math.max(timing.minPollDelayMs, wanted));
  const untilDeadline = task.deadlineAt.getTime() - nowMs;
  return Math.round(Math.max(0, Math.min(bounded, untilDeadline)));
}
