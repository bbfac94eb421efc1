import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../../pipeline/generation.module';
import { TasksModule } from '../../../../tasks/tasks.module';
import { CharactersModule } from '../../../family/delta/characters.module';
import { VideosModule } from '../videos.module';
import { VideoSdkCallsController } from './video-sdk-calls.controller';

/** `videos.extend`, `videos.edit`, `videos.createCharacter`, `videos.getCharacter` of the official SDK. */
@Module({
  imports: [GenerationModule, TasksModule, VideosModule, CharactersModule],
  controllers: [VideoSdkCallsController],
  providers: [ApiKeyGuard],
})
export class VideoSdkCallsModule {}
