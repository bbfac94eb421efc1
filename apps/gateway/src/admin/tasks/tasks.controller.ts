import { Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { AdminController } from '../shared/admin-controller.decorator';
import { CancelTaskDto, RefundTaskDto } from './task-action.dto';
import { TaskCancelResultView, TaskRefundResultView } from './task-action.view';
import { TaskCancelService } from './task-cancel.service';
import { TaskDetailService } from './task-detail.service';
import { TaskDetailView } from './task-detail.view';
import { TaskListQueryDto } from './task-list-query.dto';
import { TaskListService } from './task-list.service';
import { TaskRefundService } from './task-refund.service';
import { TaskPageView } from './task.view';

@AdminController('tasks')
export class TasksController {
  constructor(
    private readonly list: TaskListService,
    private readonly details: TaskDetailService,
    private readonly cancels: TaskCancelService,
    private readonly refunds: TaskRefundService,
  ) {}

  @Get()
  @ApiOperation({
    summary:
      'Tasks of every kind, newest first, with their money; filter by status, kind, model, account, channel, age or stuck',
  })
  @ApiQuery({ type: TaskListQueryDto })
  @ApiOkResponse({ type: TaskPageView })
  page(@Query() query: unknown): Promise<TaskPageView> {
    return this.list.page(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A task with its upstream handle, attempts, timeline and money' })
  @ApiOkResponse({ type: TaskDetailView })
  get(@Param('id') id: string): Promise<TaskDetailView> {
    return this.details.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel an unfinished task and release its hold, even where its upstream cannot be stopped; 409 once ended',
  })
  @ApiBody({ type: CancelTaskDto })
  @ApiOkResponse({ type: TaskCancelResultView })
  cancel(@Param('id') id: string, @Body() body: unknown): Promise<TaskCancelResultView> {
    return this.cancels.cancel(id, body);
  }

  @Post(':id/refund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Credit a completed task’s capture back, once per task' })
  @ApiBody({ type: RefundTaskDto })
  @ApiOkResponse({ type: TaskRefundResultView })
  refund(@Param('id') id: string, @Body() body: unknown): Promise<TaskRefundResultView> {
    return this.refunds.refund(id, body);
  }
}
