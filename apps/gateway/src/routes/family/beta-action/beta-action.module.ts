import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { VideosModule } from '../../modality/videos/videos.module';
import { BetaActionController } from './beta-action.controller';
import { BetaResultService } from './beta-result.service';
import { BetaSubmissionService } from './beta-submission.service';
import { BetaVideoSubmissionService } from './beta-video-submission.service';

/** `POST /bt?Action=…&Version=2022-08-31`: the beta family's image and video task submission and query. */
@Module({
  imports: [GenerationModule, TasksModule, VideosModule],
  controllers: [BetaActionController],
  providers: [BetaSubmissionService, BetaVideoSubmissionService, BetaResultService, ApiKeyGuard],
})
export class BetaActionModule {}
