import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { SettlementService } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { UpstreamHttpClient } from '@gateway/providers-core';
import type { RedisConnection } from '@gateway/redis';
import { CONFIG, LOGGER, PG_POOL, REDIS, UPSTREAM_HTTP } from '../platform/infrastructure/tokens';
import type { TaskRuntime } from './task-runtime';

// perf-machinery: task-runtime-loader (docs/performance-machinery.md)
/**
 * Opens the TaskRuntime on first use. A replica that serves no task route never loads Prisma, the
 * task library or BullMQ (tens of MiB once Prisma's query compiler runs), as the admin API's Prisma
 * stays out of a public replica.
 */
@Injectable()
export class TaskRuntimeLoader implements OnModuleDestroy {
  private opened: Promise<TaskRuntime> | undefined;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly settlements: SettlementService,
    @Inject(UPSTREAM_HTTP) private readonly http: UpstreamHttpClient,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(REDIS) private readonly redis: RedisConnection,
  ) {}

  runtime(): Promise<TaskRuntime> {
    this.opened ??= import('./task-runtime').then(
      ({ TaskRuntime }) =>
        new TaskRuntime({
          pool: this.pool,
          settlements: this.settlements,
          keyring: this.config.masterKeys.keys,
          http: this.http,
          logger: this.logger,
          redis: this.redis,
          redisPrefix: this.config.redisPrefix,
        }),
    );
    return this.opened;
  }

  /** The HTTP server has drained by now; the pool closes after this (InfrastructureModule). */
  async onModuleDestroy(): Promise<void> {
    if (this.opened) await (await this.opened).close();
  }
}
