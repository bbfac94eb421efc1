import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { ImageDeliveryService } from './image-delivery.service';
import { ImageGenerationService } from './image-generation.service';
import { ImagesController } from './images.controller';

/** `POST /v1/images/generations` and `POST /v1/images/edits`, on the generation pipeline. */
@Module({
  imports: [GenerationModule],
  controllers: [ImagesController],
  providers: [ImageGenerationService, ImageDeliveryService, ApiKeyGuard],
})
export class ImagesModule {}
