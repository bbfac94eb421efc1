import { Controller, Get, Headers, Inject, Param, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { ApiKeyGuard } from '../../platform/auth/api-key.guard';
import { CONFIG } from '../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../platform/stored-files/stored-file-url.util';
import { callerKeyOf } from '../task-submission.route';
import { TaskEventStreams } from './task-event-streams.service';
import { writeTaskEventStream } from './task-event.stream-writer';

/** The progress stream of any of the caller's tasks. */
@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1/tasks')
@UseGuards(ApiKeyGuard)
export class TaskEventsController {
  constructor(
    private readonly streams: TaskEventStreams,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get(':task_id/events')
  @ApiOperation({
    summary: 'Follow a task: a `text/event-stream` of its status and progress changes',
    description:
      'Each change is an event `progress`, `completed`, `failed` or `cancelled` whose `data` is the task ' +
      'as `GET /v1/tasks/{id}` answers it and whose `id` is a sequence number. The stream starts with ' +
      'the current state, sends a comment line while nothing changes (every 15 s by default), and ends ' +
      'after the terminal event. Reconnect with `Last-Event-ID` to get every event after it, none twice; ' +
      '204 when the task ended at or before it. Too many open streams: 429.',
  })
  @ApiParam({ name: 'task_id' })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received.' })
  @ApiOkResponse({
    description: 'The event stream.',
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiNoContentResponse({ description: 'Resumed after the terminal event: nothing more will come.' })
  async follow(
    @Param('task_id') taskId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const baseUrl = publicBaseOf(this.config.publicBaseUrl, request);
    const opening = await this.streams.open(callerKeyOf(request), taskId, lastEventId, baseUrl);
    return writeTaskEventStream(request, reply, opening);
  }
}
