import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisConnection } from '@gateway/redis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { enqueueAssetStatus, QUEUE_NAMES } from '@gateway/tasks/queues';
import { LazyQueue } from '../../../../platform/infrastructure/lazy-queue';
import { CONFIG, LOGGER, REDIS } from '../../../../platform/infrastructure/tokens';

/**
 * Hands a new asset to worker-assets, which looks at its processing until the upstream says Active or
 * Failed. If Redis is down the row is committed anyway: worker-assets' sweep of assets left
 * processing finds it.
 */
@Injectable()
export class AssetStatusQueue implements OnApplicationShutdown {
  private readonly queue: LazyQueue;

  constructor(
    @Inject(REDIS) redis: RedisConnection,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.queue = new LazyQueue(QUEUE_NAMES.assetTasks, redis, config.queuePrefix, logger);
  }

  async enqueue(assetId: string): Promise<void> {
    try {
      await enqueueAssetStatus(await this.queue.queue(), assetId);
    } catch (error) {
      this.logger.warn({ err: error, assetId }, 'asset status job could not be enqueued');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
