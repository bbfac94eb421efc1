import { Module } from '@nestjs/common';
import { ImageTaskQueue } from './image-task.queue';
import { TaskRuntimeLoader } from './task-runtime.loader';

/** What the gateway's task routes share: the task rows and step processor (loaded lazily) and the step queues. */
@Module({
  providers: [TaskRuntimeLoader, ImageTaskQueue],
  exports: [TaskRuntimeLoader, ImageTaskQueue],
})
export class TasksModule {}
