import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { RedisConnection } from '@gateway/redis';
import type { GatewayConfig } from '@gateway/config';
import type { GatewayLogger, GatewayMetrics } from '@gateway/observability';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import { LazyQueue } from '../infrastructure/lazy-queue';
import { CONFIG, LOGGER, METRICS, REDIS } from '../infrastructure/tokens';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/**
 * Reads the depth of every queue when Prometheus scrapes, so no timer polls Redis in between. Queue
 * depths are the deployment's, not an instance's: only the instance that serves /admin has a sampler
 * (see HealthModule), so N replicas do not export N copies of the same series.
 */
@Injectable()
export class QueueDepthSampler implements OnModuleDestroy {
  private readonly queues: LazyQueue[];

  constructor(
    @Inject(REDIS) redis: RedisConnection,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
    @Inject(LOGGER) logger: GatewayLogger,
  ) {
    this.queues = Object.values(QUEUE_NAMES).map(
      (name) => new LazyQueue(name, redis, config.queuePrefix, logger),
    );
  }

  async sample(): Promise<void> {
    await Promise.all(
      this.queues.map(async (lazyQueue) => {
        const counts = await (await lazyQueue.queue()).getJobCounts(...STATES);
        for (const state of STATES)
          this.metrics.queueDepth.set({ queue: lazyQueue.name, state }, counts[state] ?? 0);
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
