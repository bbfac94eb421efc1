import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '@gateway/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { logConnectionErrors, type GatewayLogger } from '@gateway/observability';
import type { Pool } from 'pg';
import { WORKER_CONFIG, WORKER_LOGGER } from './worker-runtime.tokens';

/**
 * The process's one pg pool and the Prisma client on top of it. Closed in the application-shutdown
 * hook, which Nest runs after every module-destroy hook: queue workers have finished their jobs.
 */
@Injectable()
export class DatabaseConnections implements OnApplicationShutdown {
  readonly pool: Pool;
  readonly prisma: PrismaClient;

  constructor(@Inject(WORKER_CONFIG) config: GatewayConfig, @Inject(WORKER_LOGGER) logger: GatewayLogger) {
    this.pool = logConnectionErrors(
      createPgPool(config.databaseUrl, config.databasePoolSize, {
        transactionPooler: config.databaseBehindTransactionPooler,
      }),
      logger,
      'postgres',
      'worker',
    );
    this.prisma = createPrismaClient(this.pool);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.prisma.$disconnect();
    await this.pool.end();
  }
}
