import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@gateway/config';
import { BetaActionModule } from './beta-action/beta-action.module';
import { HealthModule } from './health/health.module';
import { ImagesModule } from './images/images.module';
import { GatewayExceptionFilter } from './http/gateway-exception.filter';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';
import { RuntimeStateService } from './infrastructure/runtime-state.service';
import { StoredFilesModule } from './stored-files/stored-files.module';
import { TextModule } from './text/text.module';

@Module({})
export class AppModule {
  static async forConfig(config: GatewayConfig, options: InfrastructureOptions = {}): Promise<DynamicModule> {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forConfig(config, options),
        HealthModule.forConfig(config),
        ...(config.adminApiEnabled ? [await importAdminModule()] : []),
        TextModule,
        ImagesModule,
        StoredFilesModule,
        BetaActionModule,
      ],
      providers: [RuntimeStateService, { provide: APP_FILTER, useClass: GatewayExceptionFilter }],
    };
  }
}

/** Imported only where /admin is served: a public replica never loads its code, nor Prisma with it. */
async function importAdminModule() {
  const { AdminModule } = await import('./admin/admin.module');
  return AdminModule;
}
