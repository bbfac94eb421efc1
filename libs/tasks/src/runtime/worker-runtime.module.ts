import { Module, type DynamicModule } from '@nestjs/common';
import { loadConfig, type Environment, type GatewayConfig } from '@gateway/config';
import { createLogger } from '@gateway/observability';
import { DatabaseConnections } from './database-connections.service';
import { QueueRuntime } from './queue-runtime.service';
import {
  PG_POOL,
  PRISMA_CLIENT,
  WORKER_CONFIG,
  WORKER_ENVIRONMENT,
  WORKER_LOGGER,
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
      ],
      exports: [WORKER_ENVIRONMENT, WORKER_CONFIG, WORKER_LOGGER, PG_POOL, PRISMA_CLIENT, QueueRuntime],
    };
  }
}
