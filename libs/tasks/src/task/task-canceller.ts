import type { Task } from '@gateway/db';
import { UpstreamError, type TaskAdapter, type TaskPollResult } from '@gateway/providers-core';
import type { JsonHandle } from './json-value';
import { bindTaskAdapter, type BoundTaskAdapter } from './task-adapter.binding';
import { TASK_CANCELLED_END_REASON, type HoldReleaseReason } from './task-end-reason';
import { isTaskStatus, isTerminalTaskStatus } from './task-status';
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

/** What an operator's cancel did to a task. */
export type OperatorTaskCancellation =
  /** The row is cancelled and its hold released; `upstreamStopped` says whether the upstream stopped too. */
  | { kind: 'cancelled'; upstreamStopped: boolean }
  /** It ended meanwhile; its row says how. */
  | { kind: 'ended' };

export interface TaskCancellerDependencies {
  store: TaskStore;
  adapters: ReadonlyMap<string, TaskAdapter>;
  channels: TaskChannelResolver;
  releaseHold(holdRequestId: string, reason: HoldReleaseReason): Promise<void>;
  /** Records an answer about a `processing` task as a step does (TaskStepProcessor.recordPoll). */
  recordPoll(task: Task, result: TaskPollResult): Promise<unknown>;
  logger: TaskStepLogger;
}

const ENDED = { kind: 'ended' } as const;
const WILL_BE_BILLED = 'it will complete and be billed';

/** How often an operator's cancel tries its swap: the status it read may change first (queued → processing). */
const OPERATOR_SWAP_ATTEMPTS = 3;

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
   * The row is marked before the wire's cancel: a worker polling between that cancel and this swap finds
   * the record gone, and the mark tells it the client's cancel did that, so that it ends the task
   * cancelled rather than failed (the swap here then loses to it, and the client sees the same end).
   */
  private async cancelUpstream(
    task: Task,
    bound: BoundTaskAdapter,
    failureReason: string,
  ): Promise<TaskCancellation> {
    const handle = task.upstreamHandle as JsonHandle;
    let marked = false;
    try {
      if (await this.recordedUpstreamEnd(task, bound)) return ENDED;
      marked = await this.deps.store.markCancelSent(task.id, true);
      if (!marked) return ENDED;
      await bound.adapter.cancel?.(handle, bound.context);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      // Only a mark this cancel set: a poll refused before it must not clear a concurrent cancel's.
      if (marked) await this.deps.store.markCancelSent(task.id, false);
      this.deps.logger.warn({ taskId: task.id, error: error.message }, 'upstream cancel of a task refused');
      return refused(
        `the upstream accepted the task and did not cancel it (${error.failure.message}); ${WILL_BE_BILLED}`,
      );
    }
    const won = await this.deps.store.transition(task.id, 'processing', 'cancelled', { failureReason });
    return won ? this.released(task) : ENDED;
  }

  /**
   * An operator's cancel: the row is cancelled and its hold released whatever the upstream can do, so
   * the client pays nothing while the upstream may run on and charge the operator, who chose that.
   * An upstream that has finished is asked first and its end recorded (a completed task captured).
   * The row's swap comes before the wire's cancel: that cancel deletes the upstream's record, and a
   * worker polling in between would find it gone and fail the task, so that the operator's cancel
   * would lose to its own effect.
   */
  async cancelForOperator(task: Task, failureReason: string): Promise<OperatorTaskCancellation> {
    let current: Task | null = task;
    for (let attempt = 0; attempt < OPERATOR_SWAP_ATTEMPTS; attempt += 1) {
      if (current === null) return ENDED;
      const { status } = current;
      if (!isTaskStatus(status) || isTerminalTaskStatus(status)) return ENDED;
      const stoppable = await this.stoppableUpstream(current);
      if (stoppable && (await this.recordedUpstreamEnd(current, stoppable).catch(unlessBug))) return ENDED;
      if (await this.deps.store.transition(current.id, status, 'cancelled', { failureReason })) {
        await this.releaseHoldOf(current);
        // A queued task was never submitted: the swap from `queued` beat the worker's claim.
        const upstreamStopped =
          status === 'queued' || (stoppable !== undefined && (await this.stopped(current, stoppable)));
        return { kind: 'cancelled', upstreamStopped };
      }
      current = await this.deps.store.findById(task.id);
    }
    return ENDED;
  }

  /** The task's upstream, where it took the task and its wire can cancel it. */
  private async stoppableUpstream(task: Task): Promise<BoundTaskAdapter | undefined> {
    if (task.status !== 'processing' || task.upstreamHandle === null) return undefined;
    const bound = await bindTaskAdapter(task, this.deps.adapters, this.deps.channels);
    return typeof bound === 'string' || !bound.adapter.cancel ? undefined : bound;
  }

  /** True when the upstream says the task has ended there, which is then recorded as a step records it. */
  private async recordedUpstreamEnd(task: Task, bound: BoundTaskAdapter): Promise<boolean> {
    const result = await bound.adapter.poll(task.upstreamHandle as JsonHandle, bound.context);
    if (result.state === 'pending') return false;
    await this.deps.recordPoll(task, result);
    return true;
  }

  /**
   * The wire's cancel of a task whose row is already cancelled: whether it stopped. Any failure only
   * means it did not, so it is logged, not thrown: the cancel the operator asked for has happened.
   */
  private async stopped(task: Task, bound: BoundTaskAdapter): Promise<boolean> {
    try {
      await bound.adapter.cancel?.(task.upstreamHandle as JsonHandle, bound.context);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ taskId: task.id, error: message }, 'upstream cancel of a task refused');
      return false;
    }
  }

  private async released(task: Task): Promise<TaskCancellation> {
    await this.releaseHoldOf(task);
    this.deps.logger.info({ taskId: task.id }, 'task cancelled by its client');
    return { kind: 'cancelled' };
  }

  private async releaseHoldOf(task: Task): Promise<void> {
    if (task.holdRequestId !== null) {
      await this.deps.releaseHold(task.holdRequestId, TASK_CANCELLED_END_REASON);
    }
  }
}

/** An upstream that cannot be asked now tells nothing (false); anything else is a bug and is thrown. */
function unlessBug(error: unknown): false {
  if (error instanceof UpstreamError) return false;
  throw error;
}

function refused(reason: string): TaskCancellation {
  return { kind: 'refused', reason };
}
