import { Module } from '@nestjs/common';
import { AdminTokenGuard } from '../auth/admin-token.guard';
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
 * InfrastructureModule for Prisma, the config, the key resolver, the channel catalog and billing.
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
    AdminTokenGuard,
    ChannelsService,
    KeysService,
    AccountsService,
    PricesService,
    LogsService,
    UsageService,
  ],
})
export class AdminModule {}
