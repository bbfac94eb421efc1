import { Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { BINARY_BODY } from '../../platform/docs/binary-body.schema';
import { relayOpenedContent } from '../../tasks/content/content-relay';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../platform/http/declared-body';
import { adminBody } from '../shared/admin-body.declaration';
import { AdminController } from '../shared/admin-controller.decorator';
import { CancelTaskDto, RefundTaskDto } from './task-action.dto';
import { TaskCancelResultView, TaskRefundResultView } from './task-action.view';
import { TaskCancelService } from './task-cancel.service';
import { TaskContentService } from './task-content.service';
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
    private readonly contents: TaskContentService,
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

  @Get(':id/content')
  @ApiOperation({
    summary: 'A completed task’s output (video, image, audio), streamed for the console’s preview',
    description:
      'The `contentUrl` of the task detail. Streamed from the upstream through the gateway, whole or one ' +
      'byte range; a type other than image, video or audio is served as application/octet-stream. ' +
      '409 before the task has completed with an output.',
  })
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range, passed to the upstream.' })
  @ApiProduces('video/mp4', 'image/png', 'audio/mpeg', 'application/octet-stream')
  @ApiResponse({ status: 200, description: 'The whole output.', schema: BINARY_BODY })
  @ApiResponse({ status: 206, description: 'The range asked for.', schema: BINARY_BODY })
  async content(
    @Param('id') id: string,
    @Headers('range') range: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const preview = await this.contents.preview(id, range);
    reply.headers(preview.headers);
    return relayOpenedContent(reply, preview.open, 'video');
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Cancel an unfinished task and release its hold, even where its upstream cannot be stopped; 409 once ended',
  })
  @DeclaresBody(adminBody(CancelTaskDto))
  @ApiOkResponse({ type: TaskCancelResultView })
  cancel(
    @Param('id') id: string,
    @RouteBody() body: DeclaredBody<CancelTaskDto>,
  ): Promise<TaskCancelResultView> {
    return this.cancels.cancel(id, body.fields());
  }

  @Post(':id/refund')
  @HttpCode(200)
  @ApiOperation({ summary: 'Credit a completed task’s capture back, once per task' })
  @DeclaresBody(adminBody(RefundTaskDto))
  @ApiOkResponse({ type: TaskRefundResultView })
  refund(
    @Param('id') id: string,
    @RouteBody() body: DeclaredBody<RefundTaskDto>,
  ): Promise<TaskRefundResultView> {
    return this.refunds.refund(id, body.fields());
  }
}
