import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks.module';
import { TaskCostReader } from './task-cost.reader';
import { TaskQueryController } from './task-query.controller';
import { TaskQueryService } from './task-query.service';

/** `GET /v1/tasks/{id}`; its runtime loads on first use, as every task route's. */
@Module({
  imports: [TasksModule],
  controllers: [TaskQueryController],
  providers: [TaskQueryService, TaskCostReader],
  exports: [TaskQueryService],
})
export class TaskQueryModule {}
