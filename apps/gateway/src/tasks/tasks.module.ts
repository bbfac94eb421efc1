import { Module } from '@nestjs/common';
import { TaskCreation } from './task-creation.service';
import { TaskPollHints } from './task-poll-hint.service';
import { TaskRuntimeLoader } from './task-runtime.loader';
import { TaskStepQueues } from './task-step.queues';

/** What the gateway's task routes share: the task rows and step processor (loaded lazily) and the step queues. */
@Module({
  providers: [TaskRuntimeLoader, TaskStepQueues, TaskCreation, TaskPollHints],
  exports: [TaskRuntimeLoader, TaskStepQueues, TaskCreation, TaskPollHints],
})
export class TasksModule {}
