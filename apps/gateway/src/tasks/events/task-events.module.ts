import { Module } from '@nestjs/common';
import { TaskQueryModule } from '../query/task-query.module';
import { TasksModule } from '../tasks.module';
import { TaskEventStreams } from './task-event-streams.service';
import { TaskEventHub } from './task-event.hub';
import { TaskEventsController } from './task-events.controller';

/** `GET /v1/tasks/{id}/events`: the progress streams, fed by one reader per instance (TaskEventHub). */
@Module({
  imports: [TasksModule, TaskQueryModule],
  controllers: [TaskEventsController],
  providers: [TaskEventHub, TaskEventStreams],
  exports: [TaskEventHub],
})
export class TaskEventsModule {}
