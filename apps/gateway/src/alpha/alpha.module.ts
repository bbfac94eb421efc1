import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { VideosModule } from '../videos/videos.module';
import { AlphaUrlImages } from './alpha-url-images';
import { AlphaVideoController } from './alpha-video.controller';
import { AlphaVideoTasks } from './alpha-video-tasks.service';

/** The alpha official routes under `/alpha/ent/v2` (upstreams.md §3), on the video task platform. */
@Module({
  imports: [VideosModule],
  controllers: [AlphaVideoController],
  providers: [AlphaVideoTasks, AlphaUrlImages, ApiKeyGuard],
})
export class AlphaModule {}
