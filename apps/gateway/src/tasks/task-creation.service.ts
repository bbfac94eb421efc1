import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import type { Task } from '@gateway/db';
import type { CreatedTask, NewTask, TaskStepResult } from '@gateway/tasks';
import type { TaskKind } from '@gateway/tasks/queues';
import { GatewayError } from '@gateway/errors';
import { upstreamFailureOfReason } from '@gateway/providers-core';
import { toClientError } from '@gateway/routing';
import { CONFIG, LOGGER } from '../platform/infrastructure/tokens';
import type { TaskRuntime } from './task-runtime';
import { taskStoreUnavailable } from './task-store-unavailable';
import { TaskStepQueues } from './task-step.queues';

/**
 * The task steps every task route takes after the pipeline held its price (GenerationPipeline.createTask):
 * write the row (a row that cannot be written releases the hold), and start it.
 */
@Injectable()
export class TaskCreation {
  constructor(
    private readonly stepQueues: TaskStepQueues,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The row of a held task; a row that cannot be written releases the hold it names. */
  async insertRow(
    runtime: TaskRuntime,
    row: NewTask & { kind: TaskKind; holdRequestId: string },
  ): Promise<CreatedTask> {
    try {
      return await runtime.store.create(row);
    } catch (error) {
      await this.release(runtime, row.holdRequestId, row.kind);
      return taskStoreUnavailable(error);
    }
  }

  /** The hold of a task whose row was not written (or lost an idempotency race). */
  async release(runtime: TaskRuntime, holdRequestId: string, kind: TaskKind): Promise<void> {
    await runtime.settlement.releaseHold(holdRequestId).catch((error: unknown) => {
      // The hold reaper releases it at its time to live.
      this.logger.error(
        { err: error, holdRequestId },
        `hold of an uncreated ${kind} task could not be released`,
      );
    });
  }

  /**
   * Starts a committed task. By default only its step job is enqueued, not awaited: with Redis away the
   * job waits in the client's offline queue, the worker's sweep of stranded tasks finds the row anyway,
   * and the client has its answer at once. With TASK_SUBMIT_AT_CREATE_MS set, the create first makes the
   * task's first step itself (the worker's own step: claim, the upstream's create, the handle stored)
   * and waits up to that long for it; an upstream that refuses the request there (its moderation, its
   * own validation) is answered as the synchronous routes answer it, and the task, failed and released
   * by that step, is hidden. The step job is enqueued once the step has ended, whenever that is.
   */
  async start(runtime: TaskRuntime, row: Task): Promise<void> {
    const kind = row.kind as TaskKind;
    const budgetMs = this.config.taskSubmitAtCreateMs;
    if (budgetMs === 0) {
      void this.enqueueStep(kind, row.id);
      return;
    }
    const budget = new AbortController();
    const firstStep = runtime.step(row.id).then(
      (result) => {
        if (result.kind === 'wait') void this.enqueueStep(kind, row.id);
        return result;
      },
      (error: unknown) => {
        this.logger.warn({ err: error, taskId: row.id }, `first step of a ${kind} task failed at its create`);
        void this.enqueueStep(kind, row.id);
        return undefined;
      },
    );
    const outcome: TaskStepResult | undefined = await Promise.race([
      firstStep.finally(() => budget.abort()),
      sleep(budgetMs, undefined, { signal: budget.signal }).catch(() => undefined),
    ]);
    if (outcome?.kind !== 'finished') return;
    const refusal = refusalAtCreateOf((await runtime.store.findById(row.id)) ?? row);
    if (!refusal) return;
    await runtime.store.markDeleted(row.id, row.accountId);
    throw refusal;
  }

  /** The row is committed: if Redis is down, the worker's sweep of stranded tasks finds it. */
  private async enqueueStep(kind: TaskKind, taskId: string): Promise<void> {
    await this.stepQueues.enqueueStep(kind, taskId).catch((error: unknown) => {
      this.logger.warn({ err: error, taskId }, `${kind} task step job could not be enqueued`);
    });
  }
}

/**
 * What the upstream said when it refused a task's submission (no upstream task was made), as the
 * client is told it; undefined for a task that did not end so.
 */
function refusalAtCreateOf(task: Task): GatewayError | undefined {
  if (task.status !== 'failed' || task.upstreamHandle !== null) return undefined;
  const failure = upstreamFailureOfReason(task.failureReason);
  return failure && toClientError(failure);
}

/** A task created under the same Idempotency-Key: the answer when the request is the same, else 409. */
export function sameRequestOrConflict(earlier: Task, kind: TaskKind, requestHash: string | undefined): Task {
  if (earlier.kind !== kind || earlier.requestHash !== requestHash) {
    throw new GatewayError(
      'idempotency_conflict',
      'This Idempotency-Key was already used with a different request.',
      { param: 'Idempotency-Key' },
    );
  }
  // A task its create refused (TaskCreation.start) is refused again, as it was the first time.
  const refusal = earlier.deletedAt === null ? undefined : refusalAtCreateOf(earlier);
  if (refusal) throw refusal;
  return earlier;
}
