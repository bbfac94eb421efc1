import { Inject, Injectable } from '@nestjs/common';
import { boundedCommand, type RedisConnection } from '@gateway/redis';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import {
  assetStatusJobOptions,
  DEFAULT_TASK_STEP_TIMING,
  isTerminalTaskStatus,
  nextPollDelayMs,
  QUEUE_NAMES,
  TASK_QUEUE_BY_KIND,
  taskStepJobId,
  type TaskKind,
} from '@gateway/tasks/queues';
import { CONFIG, REDIS } from '../platform/infrastructure/tokens';

/** The columns the hint is computed from. */
export type PollableTask = Pick<Task, 'id' | 'kind' | 'status' | 'createdAt' | 'deadlineAt'>;

/**
 * BullMQ scores a delayed job by its due time in milliseconds times 0x1000, the low 12 bits keeping
 * jobs due in the same millisecond in order (bullmq's getDelayedScore.lua).
 */
const DELAYED_SCORE_FACTOR = 0x1000;
/**
 * How long a query waits for the due time before it answers with the default schedule: a hint is worth
 * less than the answer it rides on.
 */
const STEP_DUE_READ_TIMEOUT_MS = 50;
/** Music tasks are polled in batches by a cycle of their own; their step job only waits for the deadline. */
const BATCH_POLLED_KINDS: ReadonlySet<string> = new Set(['music']);

/**
 * `Retry-After` for the queries of unfinished tasks: the seconds until the platform's next poll of the
 * task makes a new answer possible. The step job of a task waits in its queue's delayed set, due at the
 * next poll the worker scheduled (the upstream's hint or the step timing): that due time is read with
 * one ZSCORE, without loading BullMQ. A task whose step is not waiting there (queued, running now, or
 * polled in batches) gets the platform's default poll schedule for its age (nextPollDelayMs). At least
 * one second; finished tasks get no header.
 */
@Injectable()
export class TaskPollHints {
  constructor(
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Seconds until a poll of the soonest unfinished task among `tasks` is useful; undefined when all are finished. */
  async retryAfterSeconds(tasks: readonly PollableTask[]): Promise<number | undefined> {
    const open = tasks.filter((task) => !isTerminalTaskStatus(task.status));
    if (open.length === 0) return undefined;
    const delays = await Promise.all(open.map((task) => this.delayMsOf(task)));
    return Math.max(1, Math.ceil(Math.min(...delays) / 1000));
  }

  /** The `Retry-After` header for an answer about `tasks`: none when every one is finished. */
  async headersFor(tasks: readonly PollableTask[]): Promise<Record<string, string>> {
    const seconds = await this.retryAfterSeconds(tasks);
    return seconds === undefined ? {} : { 'retry-after': String(seconds) };
  }

  /**
   * The `Retry-After` of a GetAsset about an asset still `Processing`: when worker-assets looks at it
   * next (its status job waits in the asset queue's delayed set), else the shortest poll delay.
   */
  async assetHeadersFor(asset: { id: string; status: string }): Promise<Record<string, string>> {
    if (asset.status !== 'Processing') return {};
    const jobId = assetStatusJobOptions(asset.id).jobId;
    const dueMs =
      jobId === undefined
        ? undefined
        : await this.delayedDueMs(QUEUE_NAMES.assetTasks, jobId).catch(() => undefined);
    const delayMs =
      dueMs === undefined ? DEFAULT_TASK_STEP_TIMING.minPollDelayMs : Math.max(0, dueMs - Date.now());
    return { 'retry-after': String(Math.max(1, Math.ceil(delayMs / 1000))) };
  }

  private async delayMsOf(task: PollableTask): Promise<number> {
    const now = Date.now();
    const scheduled = nextPollDelayMs(task, now, DEFAULT_TASK_STEP_TIMING);
    if (BATCH_POLLED_KINDS.has(task.kind)) return scheduled;
    const dueMs = await this.stepDueMs(task).catch(() => undefined);
    // Not delayed: waiting for a worker or running now, so a poll soon may already see its answer.
    return dueMs === undefined ? DEFAULT_TASK_STEP_TIMING.minPollDelayMs : Math.max(0, dueMs - now);
  }

  /**
   * When the task's step job is due, if it waits in the delayed set of its kind's queue. Never while
   * Redis is not connected (the command would wait in ioredis' offline queue, and the query with it,
   * for as long as the outage lasts), and never longer than STEP_DUE_READ_TIMEOUT_MS.
   */
  private async stepDueMs(task: PollableTask): Promise<number | undefined> {
    const queue = TASK_QUEUE_BY_KIND[task.kind as TaskKind];
    return queue === undefined ? undefined : this.delayedDueMs(queue, taskStepJobId(task.id));
  }

  /**
   * When job `jobId` of `queue` is due, if it waits in the delayed set. Bounded (boundedCommand): it
   * rejects when Redis cannot say at once, and the callers answer with the schedule.
   */
  private async delayedDueMs(queue: string, jobId: string): Promise<number | undefined> {
    const key = `${this.config.queuePrefix}:${queue}:delayed`;
    const score = await boundedCommand(this.redis, STEP_DUE_READ_TIMEOUT_MS, () =>
      this.redis.zscore(key, jobId),
    );
    return score === null ? undefined : Math.floor(Number(score) / DELAYED_SCORE_FACTOR);
  }
}
