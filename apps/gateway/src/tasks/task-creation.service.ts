import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { ResolvedKey } from '@gateway/auth';
import { HoldService, type TakeHoldInput } from '@gateway/billing';
import type { Task } from '@gateway/db';
import type { CreatedTask, NewTask } from '@gateway/tasks';
import type { TaskKind } from '@gateway/tasks/queues';
import { GatewayError } from '../errors/gateway-error';
import { takenOrRefused } from '../generation/hold-refusal';
import { LOGGER } from '../infrastructure/tokens';
import type { TaskRuntime } from './task-runtime';
import { taskStoreUnavailable } from './task-store-unavailable';
import { TaskStepQueues } from './task-step.queues';

/** What a task's hold names besides the task and the caller. */
export type TaskHold = Omit<TakeHoldInput, 'requestId' | 'accountId' | 'keyId'>;

/**
 * The steps every task route takes around its own admission: hold the price as a row hold named by
 * the task's id, write the row (a row that cannot be written releases the hold), and enqueue the step
 * job its worker runs.
 */
@Injectable()
export class TaskCreation {
  constructor(
    private readonly holds: HoldService,
    private readonly stepQueues: TaskStepQueues,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** `hint` tells a client whose balance cannot cover the hold what it can change. */
  async hold(taskId: string, key: ResolvedKey, hold: TaskHold, hint: string): Promise<void> {
    await takenOrRefused(
      this.holds.take({ requestId: taskId, accountId: key.accountId, keyId: key.id, ...hold }),
      hint,
      (error) => this.logger.error({ err: error, taskId }, 'hold failed'),
    );
  }

  /** The row, held under its own id; a row that cannot be written releases the hold. */
  async insertRow(runtime: TaskRuntime, row: NewTask & { kind: TaskKind }): Promise<CreatedTask> {
    try {
      return await runtime.store.create(row);
    } catch (error) {
      await this.release(runtime, row.id, row.kind);
      return taskStoreUnavailable(error);
    }
  }

  /** The hold of a task whose row was not written (or lost an idempotency race). */
  async release(runtime: TaskRuntime, taskId: string, kind: TaskKind): Promise<void> {
    await runtime.settlement.releaseHold(taskId).catch((error: unknown) => {
      // The hold reaper releases it at its time to live.
      this.logger.error({ err: error, taskId }, `hold of an uncreated ${kind} task could not be released`);
    });
  }

  /** The row is committed: if Redis is down, the worker's sweep of stranded tasks finds it. */
  async enqueueStep(kind: TaskKind, taskId: string): Promise<void> {
    await this.stepQueues.enqueueStep(kind, taskId).catch((error: unknown) => {
      this.logger.warn({ err: error, taskId }, `${kind} task step job could not be enqueued`);
    });
  }
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
  return earlier;
}
