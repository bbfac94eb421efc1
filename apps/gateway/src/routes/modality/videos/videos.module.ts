import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { OwnedVideoTasks } from './owned-video-tasks.service';
import { UnifiedVideoController } from './unified-video.controller';
import { VideosController } from './videos.controller';
import { VideoTaskService } from './video-task.service';

/** The video task routes: `/v1/videos` (OpenAI style) and `/v1/video/*` (unified style). */
@Module({
  imports: [GenerationModule, TasksModule],
  controllers: [VideosController, UnifiedVideoController],
  providers: [VideoTaskService, OwnedVideoTasks, ApiKeyGuard],
  exports: [OwnedVideoTasks, VideoTaskService],
})
export class VideosModule {}
