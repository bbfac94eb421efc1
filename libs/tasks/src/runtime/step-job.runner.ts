import { DelayedError } from 'bullmq';
import type { TaskStepResult } from '../task/task-step.types';

/** What runs a step job: the shared step processor, or a worker's delegated steps. */
export interface StepJobProcessor<TJob> {
  process(job: TJob, token?: string): Promise<TaskStepResult>;
}

/**
 * A step job as BullMQ runs it. A step that must wait has already moved its job to the delayed set;
 * DelayedError tells BullMQ so, and that the run did not fail (no attempt is used up). Here, in the
 * worker's entry point, and not in the processors: the gateway runs steps inline too, and then loads
 * no BullMQ (lazy-queue).
 */
export async function runStepJob<TJob>(
  processor: StepJobProcessor<TJob>,
  job: TJob,
  token?: string,
): Promise<Extract<TaskStepResult, { kind: 'finished' }>> {
  const result = await processor.process(job, token);
  if (result.kind !== 'finished') throw new DelayedError();
  return result;
}
