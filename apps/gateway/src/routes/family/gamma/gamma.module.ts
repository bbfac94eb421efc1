import { Module } from '@nestjs/common';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { VideosModule } from '../../modality/videos/videos.module';
import { GammaVideoController } from './gamma-video.controller';
import { GammaVideoTasks } from './gamma-video-tasks.service';

/** The gamma official-compatible routes under `/gamma/v1/videos` (upstreams.md §5.8), on the video task platform. */
@Module({
  imports: [GenerationModule, TasksModule, VideosModule],
  controllers: [GammaVideoController],
  providers: [GammaVideoTasks, ApiKeyGuard],
})
export class GammaModule {}
