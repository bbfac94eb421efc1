import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../../platform/auth/api-key.guard';
import { TasksModule } from '../../../../tasks/tasks.module';
import { VideoContentController } from './video-content.controller';
import { VideoContentService } from './video-content.service';

/** `GET /v1/videos/{task_id}/content`: a finished video's bytes, relayed from its upstream. */
@Module({
  imports: [TasksModule],
  controllers: [VideoContentController],
  providers: [VideoContentService, ApiKeyGuard],
})
export class VideoContentModule {}
