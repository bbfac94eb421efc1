import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import type { GatewayLogger } from '@gateway/observability';
import {
  QUEUE_NAMES,
  TaskRetentionSweep,
  WORKER_CONFIG,
  WORKER_LOGGER,
  type TaskRetentionResult,
} from '@gateway/tasks';
import { QueueRuntime } from '@gateway/tasks/worker';

export const TASK_RETENTION_SCHEDULER_ID = 'sweep-finished-tasks';

/**
 * Every TASK_RETENTION_SWEEP_INTERVAL_MS, deletes the finished task rows past TASK_RETENTION_DAYS and
 * clears the requests of those past TASK_REQUEST_RETENTION_DAYS. As for the hold reaper, each
 * worker-text instance upserts the same job scheduler, so one sweep is due per interval however many
 * run; sweeps that overlap skip each other's rows.
 */
@Injectable()
export class TaskRetentionProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    private readonly sweep: TaskRetentionSweep,
    @Inject(WORKER_CONFIG) private readonly config: GatewayConfig,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { taskDays, requestDays, sweepIntervalMs } = this.config.taskRetention;
    if (taskDays === 0 && requestDays === 0) return;
    await this.queues.keepJobScheduler(QUEUE_NAMES.taskRetention, TASK_RETENTION_SCHEDULER_ID, {
      everyMs: sweepIntervalMs,
      opts: { removeOnComplete: true, removeOnFail: 50 },
    });
    this.queues.consume<unknown, TaskRetentionResult>(QUEUE_NAMES.taskRetention, () => this.sweepFinished(), {
      concurrency: 1,
    });
  }

  async sweepFinished(): Promise<TaskRetentionResult> {
    const result = await this.sweep.run(this.config.taskRetention);
    if (result.deleted > 0 || result.cleared > 0) this.logger.info(result, 'swept finished tasks');
    return result;
  }
}
