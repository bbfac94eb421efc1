import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { enqueueTaskStep, QUEUE_NAMES } from '@gateway/tasks/queues';
import { LazyQueue } from '../infrastructure/lazy-queue';
import { CONFIG, LOGGER, REDIS } from '../infrastructure/tokens';

/** The step jobs of image tasks, which worker-image consumes: it polls and settles a task nobody asks about. */
@Injectable()
export class ImageTaskQueue implements OnApplicationShutdown {
  private readonly queue: LazyQueue;

  constructor(
    @Inject(REDIS) redis: Redis,
    @Inject(CONFIG) config: GatewayConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.queue = new LazyQueue(QUEUE_NAMES.imageTasks, redis, config.redisPrefix, logger);
  }

  /** Enqueues the task's step job under its id: a second call while the job exists adds nothing. */
  async enqueueStep(taskId: string): Promise<void> {
    await enqueueTaskStep(await this.queue.queue(), taskId);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}
