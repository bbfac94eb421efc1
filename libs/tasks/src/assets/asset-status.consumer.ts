import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { GatewayLogger } from '@gateway/observability';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { ASSET_STATUS_JOB_NAME, enqueueAssetStatus, isAssetStatusJob } from '../jobs/asset-status.job';
import { QUEUE_NAMES } from '../queue-names';
import { QueueRuntime } from '../runtime/queue-runtime.service';
import { WORKER_LOGGER } from '../runtime/worker-runtime.tokens';
import { AssetStatusProcessor } from './asset-status.processor';
import { ASSET_STATUS_SETTINGS, type AssetStatusSettings } from './asset-status.settings';
import { AssetStatusStore } from './asset-status.store';

/** Scheduler job that gives a status job back to assets left processing without one. */
export const PROCESSING_ASSETS_SWEEP_JOB_NAME = 'sweep-processing-assets';
const SWEEP_BATCH = 500;
const SWEEP_JOB_OPTIONS = { removeOnComplete: true, removeOnFail: 100 };

/**
 * Consumes asset-tasks: a status job looks at one asset and moves itself to the delayed set while the
 * upstream is still processing; a periodic sweep re-enqueues the assets left processing whose job was
 * lost (Redis down when the gateway enqueued, or Redis lost its data). A job's id is its asset's, so an
 * asset whose job lives is not enqueued twice; any number of these processes may run side by side.
 */
@Injectable()
export class AssetStatusConsumer implements OnApplicationBootstrap {
  constructor(
    private readonly queues: QueueRuntime,
    private readonly processor: AssetStatusProcessor,
    private readonly store: AssetStatusStore,
    @Inject(ASSET_STATUS_SETTINGS) private readonly settings: AssetStatusSettings,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queues.keepJobScheduler(QUEUE_NAMES.assetTasks, PROCESSING_ASSETS_SWEEP_JOB_NAME, {
      everyMs: this.settings.sweepIntervalMs,
      opts: SWEEP_JOB_OPTIONS,
    });
    this.queues.consume<unknown, number | void>(
      QUEUE_NAMES.assetTasks,
      (job, token) => this.handle(job, token),
      {
        concurrency: this.settings.concurrency,
      },
    );
  }

  private async handle(job: Job<unknown>, token?: string): Promise<number | void> {
    if (job.name === PROCESSING_ASSETS_SWEEP_JOB_NAME) return this.sweep();
    if (job.name !== ASSET_STATUS_JOB_NAME || !isAssetStatusJob(job.data)) {
      throw new UnrecoverableError(`unexpected job ${job.name} on ${QUEUE_NAMES.assetTasks}`);
    }
    const result = await this.processor.look(job.data.assetId);
    if (result.kind === 'finished') return;
    await job.moveToDelayed(Date.now() + result.delayMs, token);
    throw new DelayedError();
  }

  /** Enqueues a look at every asset processing unwritten for a while; answers how many it looked at. */
  private async sweep(): Promise<number> {
    const ids = await this.store.findIdleProcessingIds(
      new Date(Date.now() - this.settings.idleAfterMs),
      SWEEP_BATCH,
    );
    const producer = this.queues.producer(QUEUE_NAMES.assetTasks);
    for (const assetId of ids) await enqueueAssetStatus(producer, assetId);
    if (ids.length > 0) this.logger.info({ count: ids.length }, 'swept assets left processing');
    return ids.length;
  }
}
