import type { Job, JobsOptions, Queue } from 'bullmq';
import { tracing } from '@gateway/observability';
import type { TaskPollSnapshot } from '../task/task-poll-snapshot';

/** Payload of a job on image-tasks, video-tasks and asset-tasks: one step of one task. */
export interface TaskStepJob {
  taskId: string;
  /**
   * The W3C trace context of the request that created the task, when tracing is on: every step of
   * the task continues that trace in the worker (see TaskStepConsumer).
   */
  traceparent?: string;
  /**
   * What the next poll needs, written by the worker once the task has an upstream handle: a poll that
   * finds nothing new then reads and writes no row (see TaskPollSnapshot). Absent: the step reads the row.
   */
  poll?: TaskPollSnapshot;
  /** A turn this step booked at its channel's poll-rate gate (PollRateGate): due, it polls without asking again. */
  pollTurnAtMs?: number;
}

/** Job name of a task step. */
export const TASK_STEP_JOB_NAME = 'step';

/**
 * The first step is enqueued under the task id, so a repeated enqueue is a no-op. Encoded because
 * BullMQ refuses custom ids with a colon.
 */
export function taskStepJobId(taskId: string): string {
  return encodeURIComponent(taskId);
}

/**
 * Options of a step job. Waiting between polls does not use attempts (the step moves itself to the
 * delayed set); attempts count only thrown errors such as a database outage.
 */
export function taskStepJobOptions(taskId: string): JobsOptions {
  return {
    jobId: taskStepJobId(taskId),
    attempts: 20,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
}

export function isTaskStepJob(job: Job<unknown>): job is Job<TaskStepJob> {
  const data = job.data;
  return (
    typeof data === 'object' && data !== null && typeof (data as Partial<TaskStepJob>).taskId === 'string'
  );
}

/** Enqueues the first step of a task; a second call for the same task adds nothing while the job exists. */
export async function enqueueTaskStep(queue: Queue, taskId: string): Promise<void> {
  // Off, one field read: the job's data stays exactly what it was before tracing existed.
  const data: TaskStepJob = tracing.enabled ? { taskId, traceparent: tracing.traceparent() } : { taskId };
  await queue.add(TASK_STEP_JOB_NAME, data, taskStepJobOptions(taskId));
}
