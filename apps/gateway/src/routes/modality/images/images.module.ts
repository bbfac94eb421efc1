import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { ImageDeliveryService } from './image-delivery.service';
import { ImageGenerationService } from './image-generation.service';
import { ImageJobsService } from './image-jobs.service';
import { ImagesController } from './images.controller';

/**
 * `POST /v1/images/generations` and `POST /v1/images/edits`, on the generation pipeline, answered at once
 * or (`Prefer: respond-async`) as image jobs; `GET /v1/images/generations/{id}`.
 */
@Module({
  imports: [GenerationModule, TasksModule],
  controllers: [ImagesController],
  providers: [ImageGenerationService, ImageDeliveryService, ImageJobsService, ApiKeyGuard],
})
export class ImagesModule {}
