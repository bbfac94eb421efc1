import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@gateway/config';
import { AdminModule } from './admin/admin.module';
import { HealthModule } from './health/health.module';
import { GatewayExceptionFilter } from './http/gateway-exception.filter';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';
import { RuntimeStateService } from './infrastructure/runtime-state.service';
import { TextModule } from './text/text.module';

@Module({})
export class AppModule {
  static forConfig(config: GatewayConfig, options: InfrastructureOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [InfrastructureModule.forConfig(config, options), HealthModule, AdminModule, TextModule],
      providers: [RuntimeStateService, { provide: APP_FILTER, useClass: GatewayExceptionFilter }],
    };
  }
}
