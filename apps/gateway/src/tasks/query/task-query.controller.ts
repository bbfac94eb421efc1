import { Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { TaskObjectView } from '@gateway/contracts';
import { InferenceRoutes } from '../../platform/http/inference-routes.decorator';
import { CONFIG } from '../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../platform/stored-files/stored-file-url.util';
import { TaskPollHints } from '../task-poll-hint.service';
import { callerKeyOf } from '../task-submission.route';
import { RETRY_AFTER_HEADER_DOC } from './retry-after.header';
import { TaskQueryService } from './task-query.service';

/** The neutral task query: one shape for every kind of task, whichever route created it. */
@InferenceRoutes({ path: 'v1/tasks', dialect: 'openai', tag: 'OpenAI-style' })
export class TaskQueryController {
  constructor(
    private readonly query: TaskQueryService,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get(':task_id')
  @ApiOperation({
    summary: 'Any of your tasks (video, music, image, asset) in one neutral shape',
    description:
      'Status in `queued`, `processing`, `completed`, `failed`, `cancelled`; `result` holds the ' +
      'gateway’s own URLs once completed; `cost_micros` the captured cost once settled. While the task ' +
      'is unfinished, `Retry-After` gives the seconds until a poll is useful.',
  })
  @ApiParam({ name: 'task_id' })
  @ApiOkResponse({ type: TaskObjectView, headers: RETRY_AFTER_HEADER_DOC })
  async retrieve(
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TaskObjectView> {
    const baseUrl = publicBaseOf(this.config.publicBaseUrl, request);
    const { task, view } = await this.query.find(callerKeyOf(request), taskId, baseUrl);
    reply.headers(await this.pollHints.headersFor([task]));
    return view;
  }
}
