import { Module } from '@nestjs/common';
import { ApiKeyGuard } from '../../../platform/auth/api-key.guard';
import { GenerationModule } from '../../../pipeline/generation.module';
import { TasksModule } from '../../../tasks/tasks.module';
import { MusicContentService } from './music-content.service';
import { MusicController } from './music.controller';
import { MusicFetchService } from './music-fetch.service';
import { MusicTaskService } from './music-task.service';
import { OwnedMusicTasks } from './owned-music-tasks.service';

/** The lambda music routes: `/lambda/submit/{action}`, `/lambda/fetch`, `/lambda/fetch/{id}`, `/lambda/content/…`. */
@Module({
  imports: [GenerationModule, TasksModule],
  controllers: [MusicController],
  providers: [MusicTaskService, MusicFetchService, MusicContentService, OwnedMusicTasks, ApiKeyGuard],
})
export class MusicModule {}
