import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GenerationModule } from '../generation/generation.module';
import { TasksModule } from '../tasks/tasks.module';
import { BetaActionController } from './beta-action.controller';
import { BetaResultService } from './beta-result.service';
import { BetaSubmissionService } from './beta-submission.service';

/** `POST /bt?Action=…&Version=2022-08-31`: the beta family's task submission and query. */
@Module({
  imports: [GenerationModule, TasksModule],
  controllers: [BetaActionController],
  providers: [BetaSubmissionService, BetaResultService, ApiKeyGuard],
})
export class BetaActionModule {}
