import { Module, type DynamicModule } from '@nestjs/common';
import { loadConfig, type Environment, type GatewayConfig } from '@gateway/config';
import {
  createLogger,
  createWorkerMetrics,
  SettlementMetrics,
  TaskMetrics,
  type GatewayLogger,
  type WorkerMetrics,
} from '@gateway/observability';
import { RedisTaskChangePublisher } from '../task/task-change.publisher';
import { DatabaseConnections } from './database-connections.service';
import { QueueRuntime } from './queue-runtime.service';
import {
  readWorkerMetricsSettings,
  WORKER_METRICS_SETTINGS,
  WorkerMetricsServer,
  type WorkerMetricsSettings,
} from './worker-metrics.server';
import { WORKER_SERVICE_NAME, WorkerTracing } from './worker-tracing.service';
import {
  PG_POOL,
  PRISMA_CLIENT,
  TASK_CHANGE_ANNOUNCER,
  WORKER_CONFIG,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
  WORKER_METRICS,
} from './worker-runtime.tokens';

export interface WorkerRuntimeOptions {
  /** Written on every log line (`worker-text`, `worker-video` …). */
  serviceName: string;
  /** The environment to configure from; the process environment when absent (tests pass their own). */
  env?: Environment;
}

/**
 * What every worker process shares: configuration parsed at boot, the logger, one pg pool with its
 * Prisma client, and the BullMQ runtime. Global, so each worker module only declares its processors.
 */
@Module({})
export class WorkerRuntimeModule {
  static forRoot(options: WorkerRuntimeOptions): DynamicModule {
    return {
      module: WorkerRuntimeModule,
      global: true,
      providers: [
        { provide: WORKER_ENVIRONMENT, useValue: options.env ?? process.env },
        {
          provide: WORKER_CONFIG,
          useFactory: (env: Environment) => loadConfig(env),
          inject: [WORKER_ENVIRONMENT],
        },
        {
          provide: WORKER_LOGGER,
          useFactory: (config: GatewayConfig) =>
            createLogger({ level: config.logLevel, name: options.serviceName }),
          inject: [WORKER_CONFIG],
        },
        DatabaseConnections,
        { provide: PG_POOL, useFactory: (db: DatabaseConnections) => db.pool, inject: [DatabaseConnections] },
        {
          provide: PRISMA_CLIENT,
          useFactory: (db: DatabaseConnections) => db.prisma,
          inject: [DatabaseConnections],
        },
        QueueRuntime,
        {
          // On the worker's command connection, opened at the first change (worker-text writes none).
          provide: TASK_CHANGE_ANNOUNCER,
          useFactory: (queues: QueueRuntime, config: GatewayConfig, logger: GatewayLogger) =>
            new RedisTaskChangePublisher(() => queues.commands(), config.redisPrefix, logger),
          inject: [QueueRuntime, WORKER_CONFIG, WORKER_LOGGER],
        },
        {
          // perf-machinery: idle-worker-wakeups (docs/performance-machinery.md)
          // The process metrics sample the event loop every 10 ms (prom-client's lag monitor): 100
          // wake-ups a second in each idle worker, for nobody when /metrics is off.
          provide: WORKER_METRICS,
          useFactory: (settings: WorkerMetricsSettings) =>
            createWorkerMetrics({ processMetrics: settings.port !== 0 }),
          inject: [WORKER_METRICS_SETTINGS],
        },
        {
          provide: WORKER_METRICS_SETTINGS,
          useFactory: (env: Environment) =>
            readWorkerMetricsSettings(env, options.serviceName, options.env === undefined),
          inject: [WORKER_ENVIRONMENT],
        },
        WorkerMetricsServer,
        { provide: WORKER_SERVICE_NAME, useValue: options.serviceName },
        WorkerTracing,
        // One of each per process: the step jobs and the music batch poller share what they measure.
        {
          provide: TaskMetrics,
          useFactory: (metrics: WorkerMetrics) => new TaskMetrics(metrics),
          inject: [WORKER_METRICS],
        },
        {
          provide: SettlementMetrics,
          useFactory: (metrics: WorkerMetrics) => new SettlementMetrics(metrics),
          inject: [WORKER_METRICS],
        },
      ],
      exports: [
        WORKER_ENVIRONMENT,
        WORKER_CONFIG,
        WORKER_LOGGER,
        WORKER_METRICS,
        PG_POOL,
        PRISMA_CLIENT,
        QueueRuntime,
        TASK_CHANGE_ANNOUNCER,
        WorkerMetricsServer,
        TaskMetrics,
        SettlementMetrics,
      ],
    };
  }
}
