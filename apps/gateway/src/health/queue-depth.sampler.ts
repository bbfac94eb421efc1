import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import type { GatewayConfig } from '@gateway/config';
import type { GatewayMetrics } from '@gateway/observability';
import { QUEUE_NAMES } from '@gateway/tasks/queues';
import { CONFIG, METRICS, REDIS } from '../infrastructure/tokens';

const STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** Reads the depth of every queue when Prometheus scrapes, so no timer polls Redis in between. */
@Injectable()
export class QueueDepthSampler implements OnModuleDestroy {
  private readonly queues: Queue[];

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(METRICS) private readonly metrics: GatewayMetrics,
  ) {
    this.queues = Object.values(QUEUE_NAMES).map(
      (name) => new Queue(name, { connection: redis, prefix: config.redisPrefix }),
    );
  }

  async sample(): Promise<void> {
    await Promise.all(
      this.queues.map(async (queue) => {
        const counts = await queue.getJobCounts(...STATES);
        for (const state of STATES)
          this.metrics.queueDepth.set({ queue: queue.name, state }, counts[state] ?? 0);
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
