import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { GatewayConfig } from '@gateway/config';
import { AlphaModule } from './routes/family/alpha/alpha.module';
import { BetaActionModule } from './routes/family/beta-action/beta-action.module';
import { GammaModule } from './routes/family/gamma/gamma.module';
import { HealthModule } from './platform/health/health.module';
import { ImagesModule } from './routes/modality/images/images.module';
import { GatewayExceptionFilter } from './platform/http/gateway-exception.filter';
import {
  InfrastructureModule,
  type InfrastructureOptions,
} from './platform/infrastructure/infrastructure.module';
import { MusicModule } from './routes/modality/music/music.module';
import { RuntimeStateService } from './platform/infrastructure/runtime-state.service';
import { StoredFilesModule } from './platform/stored-files/stored-files.module';
import { TaskEventsModule } from './tasks/events/task-events.module';
import { TaskQueryModule } from './tasks/query/task-query.module';
import { TextModule } from './routes/modality/text/text.module';
import { ThetaModule } from './routes/family/theta/theta.module';
import { VideosModule } from './routes/modality/videos/videos.module';
import { CharactersModule } from './routes/family/delta/characters.module';
import { VideoSdkCallsModule } from './routes/modality/videos/sdk-calls/video-sdk-calls.module';
import { VideoContentModule } from './routes/modality/videos/content/video-content.module';

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
        VideoSdkCallsModule,
        MusicModule,
        ThetaModule,
        AlphaModule,
        GammaModule,
        TaskQueryModule,
        TaskEventsModule,
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
