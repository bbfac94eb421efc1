import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { CreditService } from '@gateway/billing';
import { createPrismaClient, type PrismaClient } from '@gateway/db';
import type { Pool } from 'pg';
import { AdminTokenGuard } from '../auth/admin-token.guard';
import { PG_POOL, PRISMA } from '../infrastructure/tokens';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { ChannelsController } from './channels/channels.controller';
import { ChannelsService } from './channels/channels.service';
import { KeysController } from './keys/keys.controller';
import { KeysService } from './keys/keys.service';
import { LogsController } from './logs/logs.controller';
import { LogsService } from './logs/logs.service';
import { PricesController } from './prices/prices.controller';
import { PricesService } from './prices/prices.service';
import { UsageController } from './usage/usage.controller';
import { UsageService } from './usage/usage.service';

/**
 * The operator's REST API under /admin, open only to the admin token. It relies on the global
 * InfrastructureModule for the pg pool, the config, the key resolver, the channel catalog and billing.
 *
 * Prisma lives here and nowhere else in the gateway: the serving path reads keys, channels and prices
 * with plain statements, so a replica started with ADMIN_API_ENABLED=false never loads Prisma's query
 * compiler (about 30 MiB of WebAssembly memory, code and malloc once its first query runs).
 */
@Module({
  controllers: [
    ChannelsController,
    KeysController,
    AccountsController,
    PricesController,
    LogsController,
    UsageController,
  ],
  providers: [
    { provide: PRISMA, inject: [PG_POOL], useFactory: (pool: Pool) => createPrismaClient(pool) },
    {
      provide: CreditService,
      inject: [PRISMA],
      useFactory: (prisma: PrismaClient) => new CreditService(prisma),
    },
    AdminTokenGuard,
    ChannelsService,
    KeysService,
    AccountsService,
    PricesService,
    LogsService,
    UsageService,
  ],
})
export class AdminModule implements OnModuleDestroy {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /** The HTTP server has drained by now (see bootstrap's shutdown); the pool closes after this. */
  async onModuleDestroy(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
