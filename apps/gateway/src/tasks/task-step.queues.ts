import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { RedisConnection } from '@gateway/redis';
import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { enqueueTaskStep, TASK_QUEUE_BY_KIND, type QueueName, type TaskKind } from '@gateway/tasks/queues';
import { LazyQueue } from '../platform/infrastructure/lazy-queue';
import { CONFIG, LOGGER, REDIS } from '../platform/infrastructure/tokens';

/**
 * The step queues of tasks, one per worker (image-tasks, video-tasks …), each opened on its first job:
 * the worker of a task's kind polls and settles it whether or not anybody asks about it.
 */
@Injectable()
export class TaskStepQueues implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, LazyQueue>();

  constructor(
    @Inject(REDIS) private readonly redis: RedisConnection,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Enqueues the task's step job under its id: a second call while the job exists adds nothing. */
  async enqueueStep(kind: TaskKind, taskId: string): Promise<void> {
    await enqueueTaskStep(await this.queueOf(TASK_QUEUE_BY_KIND[kind]).queue(), taskId);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }

  private queueOf(name: QueueName): LazyQueue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new LazyQueue(name, this.redis, this.config.queuePrefix, this.logger);
      this.queues.set(name, queue);
    }
    return queue;
  }
}
