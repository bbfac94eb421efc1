import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import type { Task } from '@gateway/db';
import { isTaskStatus, isTerminalTaskStatus, TASK_CANCELLED_END_REASON } from '@gateway/tasks';
import { LOGGER } from '../../platform/infrastructure/tokens';
import type { TaskRuntime } from '../../tasks/task-runtime';
import { TaskRuntimeLoader } from '../../tasks/task-runtime.loader';
import { CancelTaskDto } from './task-action.dto';
import type { TaskCancelResultView } from './task-action.view';
import { TaskDetailService } from './task-detail.service';
import { taskAlreadyEnded } from './task-errors';

/**
 * An operator's cancel. It first does what a client's cancel does (TaskCanceller: free before a worker
 * submitted it, or where the upstream's wire stops it). Where that is refused, the operator's cancel
 * goes on where a client's stops: the row is cancelled and the hold released, so the client pays
 * nothing, while the upstream may run on and charge the operator, who chose that; the answer says so
 * with `upstreamStopped: false`. Either way the row's failure reason and a log line name the admin and
 * the reason.
 */
@Injectable()
export class TaskCancelService {
  constructor(
    private readonly tasks: TaskRuntimeLoader,
    private readonly details: TaskDetailService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async cancel(id: string, input: CancelTaskDto): Promise<TaskCancelResultView> {
    const { reason } = input;
    const task = await this.details.find(id);
    if (isTerminalTaskStatus(task.status)) throw taskAlreadyEnded(task);
    const failureReason = `cancelled by admin: ${reason}`;
    const runtime = await this.tasks.runtime();
    const outcome = await runtime.cancel(task, failureReason);
    if (outcome.kind === 'ended') throw taskAlreadyEnded(await this.details.find(id));
    const upstreamStopped = outcome.kind === 'cancelled';
    if (!upstreamStopped) await this.cancelDespiteUpstream(runtime, id, failureReason);
    this.logger.info(
      { taskId: id, by: 'admin', reason, upstreamStopped },
      upstreamStopped
        ? 'task cancelled by an operator'
        : 'task cancelled by an operator; its upstream may run on',
    );
    return { upstreamStopped, task: await this.details.detailOf(await this.details.find(id)) };
  }

  /**
   * Cancels the row from whatever unfinished status it is in, a compare-and-swap as every status change
   * is: a worker that completes it meanwhile wins and settles it (409), and a worker that loses stores
   * nothing more, so the hold is released by this caller only.
   */
  private async cancelDespiteUpstream(
    runtime: TaskRuntime,
    id: string,
    failureReason: string,
  ): Promise<void> {
    // A status seen may change before the swap (queued → processing); each retry reads it again.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const current: Task | null = await runtime.store.findById(id);
      if (!current || !isTaskStatus(current.status) || isTerminalTaskStatus(current.status)) {
        throw taskAlreadyEnded(current ?? { id, status: 'gone' });
      }
      if (await runtime.store.transition(id, current.status, 'cancelled', { failureReason })) {
        if (current.holdRequestId !== null) {
          await runtime.settlement.releaseHold(current.holdRequestId, TASK_CANCELLED_END_REASON);
        }
        return;
      }
    }
    throw taskAlreadyEnded(await this.details.find(id));
  }
}
