import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@gateway/config';
import { AlphaModule } from './alpha/alpha.module';
import { BetaActionModule } from './beta-action/beta-action.module';
import { GammaModule } from './gamma/gamma.module';
import { HealthModule } from './health/health.module';
import { ImagesModule } from './images/images.module';
import { GatewayExceptionFilter } from './http/gateway-exception.filter';
import { InfrastructureModule, type InfrastructureOptions } from './infrastructure/infrastructure.module';
import { MusicModule } from './music/music.module';
import { RuntimeStateService } from './infrastructure/runtime-state.service';
import { StoredFilesModule } from './stored-files/stored-files.module';
import { TaskQueryModule } from './tasks/query/task-query.module';
import { TextModule } from './text/text.module';
import { ThetaModule } from './theta/theta.module';
import { VideosModule } from './videos/videos.module';
import { CharactersModule } from './videos/characters/characters.module';
import { VideoContentModule } from './videos/content/video-content.module';

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
        VideosModule,
        VideoContentModule,
        CharactersModule,
        MusicModule,
        ThetaModule,
        AlphaModule,
        GammaModule,
        TaskQueryModule,
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
