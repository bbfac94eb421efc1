import type { Task } from '@gateway/db';
import { UpstreamError, type TaskAdapter, type TaskPollResult } from '@gateway/providers-core';
import type { JsonHandle } from './json-value';
import { bindTaskAdapter, type BoundTaskAdapter } from './task-adapter.binding';
import { TASK_CANCELLED_END_REASON, type HoldReleaseReason } from './task-end-reason';
import type { TaskStore } from './task-store';
import type { TaskChannelResolver, TaskStepLogger } from './task-step.types';

/** What a client's cancel did to a task. */
export type TaskCancellation =
  /** This caller cancelled it and released its hold: the upstream never took it, or its wire stopped it. */
  | { kind: 'cancelled' }
  /** It ended meanwhile (another writer won its terminal transition); its row says how. */
  | { kind: 'ended' }
  /** It runs on and is settled as usual; `reason` says why, in words for the client. */
  | { kind: 'refused'; reason: string };

export interface TaskCancellerDependencies {
  store: TaskStore;
  adapters: ReadonlyMap<string, TaskAdapter>;
  channels: TaskChannelResolver;
  releaseHold(holdRequestId: string, reason: HoldReleaseReason): Promise<void>;
  /** Records an answer about a `processing` task as a step does (TaskStepProcessor.recordPoll). */
  recordPoll(task: Task, result: TaskPollResult): Promise<unknown>;
  logger: TaskStepLogger;
}

const ENDED: TaskCancellation = { kind: 'ended' };
const WILL_BE_BILLED = 'it will complete and be billed';

/**
 * Cancels a task for its client, free only where the operator pays the upstream nothing for it: before
 * a worker claimed its submission (a compare-and-swap from `queued`: either the worker's claim wins and
 * it submits, or this one and it never does), or once the upstream took it, where the wire's cancel
 * succeeds. Anything else runs on and is billed, so that creating and deleting at once costs the
 * operator nothing it cannot charge.
 */
export class TaskCanceller {
  constructor(private readonly deps: TaskCancellerDependencies) {}

  async cancel(task: Task, failureReason: string): Promise<TaskCancellation> {
    let current: Task | null = task;
    if (current.status === 'queued') {
      const won = await this.deps.store.transition(task.id, 'queued', 'cancelled', { failureReason });
      if (won) return this.released(task);
      current = await this.deps.store.findById(task.id);
    }
    if (current?.status !== 'processing') return ENDED;
    const bound = await bindTaskAdapter(current, this.deps.adapters, this.deps.channels);
    if (typeof bound === 'string') return refused(`the gateway cannot reach its upstream (${bound})`);
    if (current.upstreamHandle === null) {
      // The claim is stored before the upstream call: the submission may be reaching the upstream now.
      return refused(
        bound.adapter.cancel
          ? 'it is being submitted to the upstream right now; try again in a moment'
          : `it is being submitted to the upstream right now and its wire cannot cancel it; ${WILL_BE_BILLED}`,
      );
    }
    if (!bound.adapter.cancel) {
      return refused(`the upstream accepted the task and its wire cannot cancel it; ${WILL_BE_BILLED}`);
    }
    return this.cancelUpstream(current, bound, failureReason);
  }

  /**
   * A wire's cancel also deletes the record of a task that has finished there, so the upstream is asked
   * first: a task it finished is settled as finished (a completed one captured), never cancelled for free.
   */
  private async cancelUpstream(
    task: Task,
    bound: BoundTaskAdapter,
    failureReason: string,
  ): Promise<TaskCancellation> {
    const handle = task.upstreamHandle as JsonHandle;
    try {
      const result = await bound.adapter.poll(handle, bound.context);
      if (result.state !== 'pending') {
        await this.deps.recordPoll(task, result);
        return ENDED;
      }
      await bound.adapter.cancel?.(handle, bound.context);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      this.deps.logger.warn({ taskId: task.id, error: error.message }, 'upstream cancel of a task refused');
      return refused(
        `the upstream accepted the task and did not cancel it (${error.failure.message}); ${WILL_BE_BILLED}`,
      );
    }
    const won = await this.deps.store.transition(task.id, 'processing', 'cancelled', { failureReason });
    return won ? this.released(task) : ENDED;
  }

  private async released(task: Task): Promise<TaskCancellation> {
    if (task.holdRequestId !== null) {
      await this.deps.releaseHold(task.holdRequestId, TASK_CANCELLED_END_REASON);
    }
    this.deps.logger.info({ taskId: task.id }, 'task cancelled by its client');
    return { kind: 'cancelled' };
  }
}

function refused(reason: string): TaskCancellation {
  return { kind: 'refused', reason };
}
