import { Module } from '@nestjs/common';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { VideosModule } from '../../modality/videos/videos.module';
import { AlphaUrlImages } from './alpha-url-images';
import { AlphaVideoController } from './alpha-video.controller';
import { AlphaVideoTasks } from './alpha-video-tasks.service';

/** The alpha official routes under `/alpha/ent/v2` (upstreams.md §3), on the video task platform. */
@Module({
  imports: [GenerationModule, TasksModule, VideosModule],
  controllers: [AlphaVideoController],
  providers: [AlphaVideoTasks, AlphaUrlImages, ApiKeyGuard],
})
export class AlphaModule {}
