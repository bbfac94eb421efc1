import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { isTerminalTaskStatus } from '@gateway/tasks';
import { LOGGER } from '../../platform/infrastructure/tokens';
import { TaskRuntimeLoader } from '../../tasks/task-runtime.loader';
import { CancelTaskDto } from './task-action.dto';
import type { TaskCancelResultView } from './task-action.view';
import { TaskDetailService } from './task-detail.service';
import { taskAlreadyEnded } from './task-errors';

/**
 * An operator's cancel (TaskRuntime.cancelForOperator): where a client's cancel stops (the upstream
 * took the task and its wire cannot stop it), the operator's goes on: the row is cancelled and the hold
 * released, so the client pays nothing, while the upstream may run on and charge the operator, who
 * chose that; the answer says so with `upstreamStopped: false`. Either way the row's failure reason and
 * a log line name the admin and the reason.
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
    const runtime = await this.tasks.runtime();
    const outcome = await runtime.cancelForOperator(task, `cancelled by admin: ${reason}`);
    if (outcome.kind === 'ended') throw taskAlreadyEnded(await this.details.find(id));
    const { upstreamStopped } = outcome;
    this.logger.info(
      { taskId: id, by: 'admin', reason, upstreamStopped },
      upstreamStopped
        ? 'task cancelled by an operator'
        : 'task cancelled by an operator; its upstream may run on',
    );
    return { upstreamStopped, task: await this.details.detailOf(await this.details.find(id)) };
  }
}
