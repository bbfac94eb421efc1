import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import type { GatewayLogger } from '@gateway/observability';
import type { ObjectStore, SweepResult } from '@gateway/storage';
import { QUEUE_NAMES, WORKER_CONFIG, WORKER_LOGGER } from '@gateway/tasks';
import { QueueRuntime } from '@gateway/tasks/worker';
import { OBJECT_STORE } from './object-store.token';

export const STORED_FILES_SWEEP_SCHEDULER_ID = 'sweep-expired-stored-files';

/**
 * Every OBJECT_SWEEP_INTERVAL_MS, removes the stored files (images the gateway answered with as
 * URLs) whose retention has ended. Expired files already read as absent, so the sweep only frees
 * space. Each worker-image instance upserts the same job scheduler (and again after a Redis
 * reconnection), so however many run, one sweep is due per interval; one that fails to remove a
 * file leaves it to the next.
 */
@Injectable()
export class StoredFilesSweepProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(WORKER_CONFIG) private readonly config: GatewayConfig,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.keepJobScheduler(QUEUE_NAMES.imageMaintenance, STORED_FILES_SWEEP_SCHEDULER_ID, {
      everyMs: this.config.objectSweepIntervalMs,
      opts: { removeOnComplete: true, removeOnFail: 50 },
    });
    this.queues.consume<unknown, SweepResult>(QUEUE_NAMES.imageMaintenance, () => this.sweepExpired(), {
      concurrency: 1,
    });
  }

  async sweepExpired(): Promise<SweepResult> {
    const result = await this.store.sweepExpired(new Date());
    if (result.removed > 0 || result.failed > 0) {
      this.logger.info({ removed: result.removed, failed: result.failed }, 'swept expired stored files');
    }
    return result;
  }
}
