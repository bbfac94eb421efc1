import type { Queue } from 'bullmq';
import { enqueueTaskStep, taskStepJobId } from '../jobs/task-step.job';
import type { TaskStore } from '../task/task-store';

/** Task ids read per query; their job states are asked of Redis together. */
const DEFAULT_PAGE_SIZE = 500;

export interface StrandedSweepResult {
  /** Idle open tasks and idle finished tasks with an open hold looked at. */
  looked: number;
  /** Of those, tasks whose step job was given back or brought forward. */
  revived: number;
  /** Tasks whose job could not be looked up or revived (tried again at the next sweep). */
  failed: Array<{ taskId: string; error: unknown }>;
}

/**
 * Gives a step job back to open tasks that have none: the gateway committed the row but could not
 * enqueue (Redis down), or Redis lost the job. Also to finished tasks whose hold is still open (a worker
 * died between the terminal transition and the settlement), running a parked step job now: its run
 * settles the task (TaskStepProcessor settles a finished task again, once per hold). Only tasks idle for a while are looked at (a fresh row's
 * job may still be on its way). The step job's id is the task id, so a task whose job is live (waiting,
 * delayed, active) is left alone; a job kept as completed or failed (see taskStepJobOptions: a re-add
 * under its id would be a no-op while it is kept) is retried instead; a task without any job gets a new
 * one. Every step is safe to re-run, so a task revived twice by racing sweeps is still stepped once.
 */
export class StrandedTaskSweep {
  constructor(
    private readonly store: Pick<TaskStore, 'findIdleOpenIds' | 'findIdleUnsettledIds'>,
    private readonly queue: Queue,
    private readonly kinds: readonly string[],
    private readonly pageSize = DEFAULT_PAGE_SIZE,
  ) {}

  async run(idleSince: Date): Promise<StrandedSweepResult> {
    const result: StrandedSweepResult = { looked: 0, revived: 0, failed: [] };
    await this.sweep(result, (afterId) =>
      this.store.findIdleOpenIds(idleSince, this.kinds, this.pageSize, afterId),
    );
    // Finished but not settled: the step job settles on its next run, so a parked one is run now.
    await this.sweep(
      result,
      (afterId) => this.store.findIdleUnsettledIds(idleSince, this.kinds, this.pageSize, afterId),
      { runDelayedNow: true },
    );
    return result;
  }

  private async sweep(
    result: StrandedSweepResult,
    page: (afterId: string | undefined) => Promise<string[]>,
    options: { runDelayedNow?: boolean } = {},
  ): Promise<void> {
    let afterId: string | undefined;
    for (;;) {
      const ids = await page(afterId);
      const outcomes = await Promise.allSettled(ids.map((taskId) => this.revive(taskId, options)));
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'rejected') result.failed.push({ taskId: ids[index], error: outcome.reason });
        else if (outcome.value) result.revived += 1;
      });
      result.looked += ids.length;
      if (ids.length < this.pageSize) return;
      afterId = ids[ids.length - 1];
    }
  }

  /** Whether the task had no live step job and got one (or, `runDelayedNow`, had its delayed one brought forward). */
  private async revive(
    taskId: string,
    { runDelayedNow = false }: { runDelayedNow?: boolean },
  ): Promise<boolean> {
    const jobId = taskStepJobId(taskId);
    const state = await this.queue.getJobState(jobId);
    if (state === 'unknown') {
      await enqueueTaskStep(this.queue, taskId);
      return true;
    }
    if (runDelayedNow && state === 'delayed') {
      await (await this.queue.getJob(jobId))?.promote();
      return true;
    }
    if (state !== 'completed' && state !== 'failed') return false;
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }
}
