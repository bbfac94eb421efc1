import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { VideosModule } from '../../modality/videos/videos.module';
import { AssetChannels } from './assets/asset-channels';
import { AssetLibraryService } from './assets/asset-library.service';
import { AssetReferences } from './assets/asset-references';
import { AssetStatusQueue } from './assets/asset-status.queue';
import { AssetStoreLoader } from './assets/asset-store.loader';
import { AssetUrlCheck } from './assets/asset-url-check';
import { ThetaAssetController } from './assets/theta-asset.controller';
import { ThetaVideoController } from './video/theta-video.controller';

/** theta 2.0: `/v1/video/generations` and the asset library under `/v1/theta/asset/*`. */
@Module({
  imports: [GenerationModule, TasksModule, VideosModule],
  controllers: [ThetaVideoController, ThetaAssetController],
  providers: [
    ApiKeyGuard,
    AssetStoreLoader,
    AssetChannels,
    AssetStatusQueue,
    AssetReferences,
    AssetLibraryService,
    AssetUrlCheck,
  ],
})
export class ThetaModule {}
