import { hostname } from 'node:os';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Environment, GatewayConfig } from '@gateway/config';
import { logConnectionErrors, type GatewayLogger } from '@gateway/observability';
import { createRedisConnection, type RedisConnection } from '@gateway/redis';
import {
  Queue,
  Worker,
  type ConnectionOptions,
  type JobSchedulerTemplateOptions,
  type Processor,
} from 'bullmq';
import type { QueueName } from '../queue-names';
import { closeWorkerWithin } from './graceful-close.util';
import { readPositiveInteger } from './worker-environment.util';
import { WORKER_CONFIG, WORKER_ENVIRONMENT, WORKER_LOGGER } from './worker-runtime.tokens';

/** BullMQ's defaults; shorter values make a crashed worker's jobs come back sooner. */
const DEFAULT_LOCK_DURATION_MS = 30_000;
const DEFAULT_STALLED_INTERVAL_MS = 30_000;
const MAX_LOCK_SETTING_MS = 3_600_000;

/**
 * The name this process's BullMQ workers take: BullMQ writes it on each job it moves to active
 * (`processedBy`), so that an operator, or a test, can tell which process holds a job.
 */
export function queueWorkerName(pid: number = process.pid): string {
  return `${hostname()}:${pid}`;
}

export interface ConsumeOptions {
  /** Jobs in flight at once in this process. */
  concurrency: number;
}

/** A periodic job: every `everyMs`, one job named after the scheduler, whatever the number of instances. */
export interface JobSchedulerOptions {
  everyMs: number;
  opts: JobSchedulerTemplateOptions;
}

/**
 * Owns every BullMQ worker and queue of the process, all under the queue prefix (the configured one,
 * hash-tagged on a Redis Cluster). On shutdown the workers stop fetching and finish their active jobs
 * within the grace period, before the database connections close (those close in the later
 * application-shutdown hook).
 */
@Injectable()
export class QueueRuntime implements OnModuleDestroy {
  private readonly workers: Worker[] = [];
  private readonly queues = new Map<QueueName, Queue>();
  /** Cluster and Sentinel clients handed to BullMQ, which does not close a connection it was given. */
  private readonly ownConnections: RedisConnection[] = [];
  /** For the worker's own scripts (the poll-rate gate); opened at its first use. */
  private commandConnection?: RedisConnection;
  /** How long a job stays locked without renewal before another worker may take it over. */
  private readonly lockDurationMs: number;
  /** How often each worker looks for jobs whose lock expired (their worker died). */
  private readonly stalledIntervalMs: number;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: GatewayConfig,
    @Inject(WORKER_LOGGER) private readonly logger: GatewayLogger,
    @Inject(WORKER_ENVIRONMENT) env: Environment,
  ) {
    this.lockDurationMs = readPositiveInteger(
      env,
      'QUEUE_LOCK_DURATION_MS',
      DEFAULT_LOCK_DURATION_MS,
      MAX_LOCK_SETTING_MS,
    );
    this.stalledIntervalMs = readPositiveInteger(
      env,
      'QUEUE_STALLED_INTERVAL_MS',
      DEFAULT_STALLED_INTERVAL_MS,
      MAX_LOCK_SETTING_MS,
    );
  }

  consume<DataType, ResultType>(
    queueName: QueueName,
    processor: Processor<DataType, ResultType>,
    options: ConsumeOptions,
  ): Worker<DataType, ResultType> {
    const worker = new Worker<DataType, ResultType>(queueName, processor, {
      connection: this.connection(`worker:${queueName}`),
      name: queueWorkerName(),
      prefix: this.config.queuePrefix,
      concurrency: options.concurrency,
      lockDuration: this.lockDurationMs,
      stalledInterval: this.stalledIntervalMs,
      // A step job lives as long as its task (many polls); BullMQ counts stalls over that whole life,
      // and every step is safe to re-run, so a few abandoned workers must not fail the task.
      maxStalledCount: 10,
    });
    logConnectionErrors(worker, this.logger, 'redis', `worker ${queueName}`);
    worker.on('failed', (job, error) =>
      this.logger.warn(
        { err: error, queue: queueName, jobId: job?.id, attemptsMade: job?.attemptsMade },
        'job attempt failed',
      ),
    );
    this.workers.push(worker);
    this.logger.info({ queue: queueName, concurrency: options.concurrency }, 'consuming queue');
    return worker;
  }

  /** One producer per queue name, shared by the whole process. */
  producer(queueName: QueueName): Queue {
    const existing = this.queues.get(queueName);
    if (existing) return existing;
    const queue = new Queue(queueName, {
      connection: this.connection(`producer:${queueName}`),
      prefix: this.config.queuePrefix,
    });
    logConnectionErrors(queue, this.logger, 'redis', `producer ${queueName}`);
    this.queues.set(queueName, queue);
    return queue;
  }

  /**
   * Upserts the job scheduler now, and again whenever the producer's Redis connection becomes ready
   * after a reconnection: a Redis that restarts without its data has lost the scheduler, and nothing
   * else would recreate it before this process restarts. Upserting is idempotent, so every instance
   * doing it at once leaves one scheduler.
   */
  async keepJobScheduler(
    queueName: QueueName,
    schedulerId: string,
    options: JobSchedulerOptions,
  ): Promise<void> {
    const queue = this.producer(queueName);
    const upsert = () =>
      queue.upsertJobScheduler(
        schedulerId,
        { every: options.everyMs },
        { name: schedulerId, opts: options.opts },
      );
    await queue.waitUntilReady();
    await upsert();
    // Listening only now: the connection's first 'ready' is not a reconnection.
    queue.getBackend().on('ready', () => {
      upsert().then(
        () =>
          this.logger.info({ queue: queueName, schedulerId }, 'job scheduler upserted after reconnection'),
        (error: unknown) =>
          this.logger.error({ err: error, queue: queueName, schedulerId }, 'job scheduler upsert failed'),
      );
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.logger.info({ graceMs: this.config.shutdownGraceMs }, 'closing queue workers');
    await Promise.all(
      this.workers.map((worker) => closeWorkerWithin(worker, this.config.shutdownGraceMs, this.logger)),
    );
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    for (const connection of this.ownConnections) connection.disconnect();
    this.commandConnection?.disconnect();
  }

  /** One connection for commands and scripts of the process's own (not BullMQ's), under redisPrefix. */
  commands(): RedisConnection {
    if (!this.commandConnection) {
      const role = 'commands';
      // Callers that must not wait through an outage get an error, and fail open (RedisPollRateGate).
      this.commandConnection = createRedisConnection(this.config.redis, {
        connectionName: `${this.config.redisPrefix}:${role}`,
        maxRetriesPerRequest: 1,
      });
      logConnectionErrors(this.commandConnection, this.logger, 'redis', role);
    }
    return this.commandConnection;
  }

  /**
   * `role` names the connection in Redis's CLIENT LIST, under the key prefix, for operators and fault
   * tests. One server: options, from which BullMQ opens (and closes) its own connections, as before
   * clusters existed. A cluster or a Sentinel-watched primary: a client from the one factory of
   * @gateway/redis (BullMQ takes a cluster only as an instance, and duplicates it for a worker's
   * blocking connection).
   */
  private connection(role: string): ConnectionOptions {
    const connectionName = `${this.config.redisPrefix}:${role}`;
    // Workers block on Redis; a capped retry count would turn a short Redis outage into lost fetches.
    const maxRetriesPerRequest = null;
    const topology = this.config.redis;
    if (topology.kind === 'single') return { url: topology.url, maxRetriesPerRequest, connectionName };
    const connection = createRedisConnection(topology, { connectionName, maxRetriesPerRequest });
    logConnectionErrors(connection, this.logger, 'redis', role);
    this.ownConnections.push(connection);
    return connection;
  }
}
