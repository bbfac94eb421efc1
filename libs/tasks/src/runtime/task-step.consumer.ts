import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { tracing, type GatewayLogger } from '@gateway/observability';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { isTaskStepJob, TASK_STEP_JOB_NAME } from '../jobs/task-step.job';
import { taskKindsOfQueue } from '../task/task-kinds';
import { TaskStepProcessor } from '../task/task-step.processor';
import type { TaskStepResult } from '../task/task-step.types';
import { TaskStore } from '../task/task-store';
import { DELEGATED_TASK_STEPS, type DelegatedTaskSteps } from './delegated-task-steps';
import { QueueRuntime } from './queue-runtime.service';
import { runStepJob } from './step-job.runner';
import { StrandedTaskSweep } from './stranded-task.sweep';
import { TASK_STEP_WORKER_SETTINGS, type TaskStepWorkerSettings } from './task-step-worker.settings';
import { WORKER_LOGGER } from './worker-runtime.tokens';

/** Scheduler job that catches tasks whose step job was lost (for example with a Redis that lost its data). */
export const OVERDUE_SWEEP_JOB_NAME = 'sweep-overdue-tasks';
const OVERDUE_SWEEP_BATCH = 100;
/** Scheduler job that gives a step job back to open tasks that lost theirs or never had one. */
export const STRANDED_SWEEP_JOB_NAME = 'sweep-stranded-tasks';
const SWEEP_JOB_OPTIONS = { removeOnComplete: true, removeOnFail: 100 };

/**
 * Consumes one task queue: step jobs go to the shared step processor; one periodic sweep fails (or
 * reconciles) open tasks past their deadline, another re-enqueues open tasks left without a step job
 * (see StrandedTaskSweep). Any number of these processes may run side by side:
 * the job schedulers are upserted idempotently (at start and after every Redis reconnection) and every
 * task write is a compare-and-swap.
 */
@Injectable()
export class TaskStepConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    private readonly processor: TaskStepProcessor,
    private readonly store: TaskStore,
    @Inject(TASK_STEP_WORKER_SETTINGS) private readonly settings: TaskStepWorkerSettings,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
    @Inject(DELEGATED_TASK_STEPS) private readonly delegated: DelegatedTaskSteps | null,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { queue, concurrency, overdueSweepIntervalMs, strandedSweepIntervalMs } = this.settings;
    await this.queues.keepJobScheduler(queue, OVERDUE_SWEEP_JOB_NAME, {
      everyMs: overdueSweepIntervalMs,
      opts: SWEEP_JOB_OPTIONS,
    });
    await this.queues.keepJobScheduler(queue, STRANDED_SWEEP_JOB_NAME, {
      everyMs: strandedSweepIntervalMs,
      opts: SWEEP_JOB_OPTIONS,
    });
    this.queues.consume<unknown, TaskStepResult | number>(queue, (job, token) => this.handle(job, token), {
      concurrency,
    });
  }

  private async handle(job: Job<unknown>, token?: string): Promise<TaskStepResult | number> {
    if (job.name === OVERDUE_SWEEP_JOB_NAME) return this.sweepOverdue();
    if (job.name === STRANDED_SWEEP_JOB_NAME) return this.sweepStranded();
    if (job.name !== TASK_STEP_JOB_NAME || !isTaskStepJob(job)) {
      throw new UnrecoverableError(`unexpected job ${job.name} on ${this.settings.queue}`);
    }
    const processor = this.processorOf(job.data.taskId);
    if (!tracing.enabled) return runStepJob(processor, job, token);
    // Each step continues the trace of the request that created the task; a step that waits for
    // its next poll (DelayedError) ended normally.
    return tracing.inRemoteSpan(
      job.data.traceparent,
      'task step',
      { 'gateway.task.id': job.data.taskId, 'gateway.queue': this.settings.queue },
      () => runStepJob(processor, job, token),
      (error) => (error instanceof DelayedError ? undefined : 'step_error'),
    );
  }

  /** The app's own processor for the tasks it owns (DelegatedTaskSteps), else the shared one. */
  private processorOf(taskId: string): DelegatedTaskSteps | TaskStepProcessor {
    return this.delegated?.owns(taskId) ? this.delegated : this.processor;
  }

  /** Runs the step of every overdue task of this queue's kinds; returns how many it looked at. */
  private async sweepOverdue(): Promise<number> {
    const kinds = taskKindsOfQueue(this.settings.queue);
    const overdue = await this.store.findOverdue(new Date(), OVERDUE_SWEEP_BATCH, kinds);
    for (const task of overdue) await this.processorOf(task.id).runStep(task.id);
    if (overdue.length > 0)
      this.logger.info({ queue: this.settings.queue, count: overdue.length }, 'swept overdue tasks');
    return overdue.length;
  }

  /** Re-enqueues the step of open tasks without a live step job; returns how many got one. */
  private async sweepStranded(): Promise<number> {
    const { queue, strandedAfterMs } = this.settings;
    const sweep = new StrandedTaskSweep(this.store, this.queues.producer(queue), taskKindsOfQueue(queue));
    const { looked, revived, failed } = await sweep.run(new Date(Date.now() - strandedAfterMs));
    for (const { taskId, error } of failed) {
      this.logger.warn({ err: error, queue, taskId }, 'could not revive the step job of an idle task');
    }
    if (revived > 0) this.logger.info({ queue, looked, revived }, 'revived step jobs of stranded tasks');
    return revived;
  }
}
