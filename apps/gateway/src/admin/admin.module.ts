import { Inject, Module, type OnModuleDestroy } from '@nestjs/common';
import { CreditService, DebitService } from '@gateway/billing';
import { LedgerAudit } from '@gateway/billing/ledger-audit';
import { createPrismaClient, type PrismaClient } from '@gateway/db';
import type { Pool } from 'pg';
import { AdminTokenGuard } from '../platform/auth/admin-token.guard';
import { PG_POOL, PRISMA } from '../platform/infrastructure/tokens';
import { TasksModule } from '../tasks/tasks.module';
import { VideoContentService } from '../routes/modality/videos/content/video-content.service';
import { AccountListService } from './accounts/account-list.service';
import { AccountsController } from './accounts/accounts.controller';
import { AccountsService } from './accounts/accounts.service';
import { AuditController } from './audit/audit.controller';
import { AuditService } from './audit/audit.service';
import { ChannelHealthReader } from './channels/channel-health.reader';
import { ChannelTestService } from './channels/channel-test.service';
import { ChannelsController } from './channels/channels.controller';
import { ChannelsService } from './channels/channels.service';
import { KeysController } from './keys/keys.controller';
import { KeysService } from './keys/keys.service';
import { DebitsService } from './ledger/debits.service';
import { LedgerController } from './ledger/ledger.controller';
import { LedgerService } from './ledger/ledger.service';
import { LogsController } from './logs/logs.controller';
import { LogsService } from './logs/logs.service';
import { OverviewController } from './overview/overview.controller';
import { OverviewService } from './overview/overview.service';
import { PricesController } from './prices/prices.controller';
import { PricesService } from './prices/prices.service';
import { ConsoleSessionController } from './session/console-session.controller';
import { ConsoleSessionService } from './session/console-session.service';
import { ConsoleSessionStore } from './session/console-session.store';
import { TaskCancelService } from './tasks/task-cancel.service';
import { TaskContentService } from './tasks/task-content.service';
import { TaskDetailService } from './tasks/task-detail.service';
import { TaskListService } from './tasks/task-list.service';
import { TaskMoneyReader } from './tasks/task-money.reader';
import { TaskRefundService } from './tasks/task-refund.service';
import { TasksController } from './tasks/tasks.controller';
import { UsageController } from './usage/usage.controller';
import { UsageService } from './usage/usage.service';
import { WebhookDeliveriesService } from './webhooks/webhook-deliveries.service';
import { WebhooksController } from './webhooks/webhooks.controller';
import { WebhooksService } from './webhooks/webhooks.service';

// perf-machinery: public-replica-pg (docs/performance-machinery.md)
/**
 * The operator's REST API under /admin, open only to the admin token. It relies on the global
 * InfrastructureModule for the pg pool, the config, the key resolver, the channel catalog and billing.
 *
 * Prisma lives here and nowhere else in the gateway: the serving path reads keys, channels and prices
 * with plain statements, so a replica started with ADMIN_API_ENABLED=false never loads Prisma's query
 * compiler (about 30 MiB of WebAssembly memory, code and malloc once its first query runs).
 */
@Module({
  // The task routes share the gateway's task runtime (loaded on first use) for an operator's cancel.
  imports: [TasksModule],
  controllers: [
    ChannelsController,
    KeysController,
    AccountsController,
    LedgerController,
    AuditController,
    PricesController,
    LogsController,
    UsageController,
    OverviewController,
    TasksController,
    ConsoleSessionController,
    WebhooksController,
  ],
  providers: [
    { provide: PRISMA, inject: [PG_POOL], useFactory: (pool: Pool) => createPrismaClient(pool) },
    {
      provide: CreditService,
      inject: [PRISMA],
      useFactory: (prisma: PrismaClient) => new CreditService(prisma),
    },
    {
      provide: DebitService,
      inject: [PRISMA],
      useFactory: (prisma: PrismaClient) => new DebitService(prisma),
    },
    { provide: LedgerAudit, inject: [PRISMA], useFactory: (prisma: PrismaClient) => new LedgerAudit(prisma) },
    ConsoleSessionStore,
    AdminTokenGuard,
    ConsoleSessionService,
    ChannelsService,
    ChannelHealthReader,
    ChannelTestService,
    KeysService,
    AccountsService,
    AccountListService,
    LedgerService,
    DebitsService,
    AuditService,
    PricesService,
    LogsService,
    UsageService,
    OverviewService,
    {
      provide: TaskMoneyReader,
      inject: [PRISMA],
      useFactory: (prisma: PrismaClient) => new TaskMoneyReader(prisma),
    },
    TaskListService,
    TaskDetailService,
    TaskCancelService,
    TaskRefundService,
    // The video content route's service, for the console's preview of any account's video.
    VideoContentService,
    TaskContentService,
    WebhooksService,
    WebhookDeliveriesService,
  ],
})
export class AdminModule implements OnModuleDestroy {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  /** The HTTP server has drained by now (see bootstrap's shutdown); the pool closes after this. */
  async onModuleDestroy(): Promise<void> {
    await this.prisma.$disconnect();
  }
}
