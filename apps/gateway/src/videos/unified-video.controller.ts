import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { UnifiedVideoCreateRequestDto, UnifiedVideoView } from '@gateway/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GatewayError } from '../errors/gateway-error';
import { warningHeader } from '../generation/warning-header';
import { CONFIG } from '../infrastructure/tokens';
import { publicBaseOf } from '../stored-files/stored-file-url.util';
import { callerKeyOf, taskSubmissionContextOf } from '../tasks/task-submission.route';
import { OwnedVideoTasks } from './owned-video-tasks.service';
import { unifiedVideoAnswer } from './video-answers';
import { toUnifiedVideoRequest } from './video-request.mapper';
import { VideoTaskService } from './video-task.service';

/**
 * The unified video routes (gateway interface, "Unified video routes"): the same tasks as
 * `/v1/videos`, created from the unified request and answered with the video object plus `task_id`.
 */
@ApiTags('Unified video')
@ApiBearerAuth()
@Controller('v1/video')
@UseGuards(ApiKeyGuard)
export class UnifiedVideoController {
  constructor(
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a video task; the number of images selects the mode',
    description:
      'No images: text to video; one: first frame; two: first and last frames; `subjects` for ' +
      'reference-to-video. Answers at once with the queued video; query it with `GET /v1/video/query`.',
  })
  @ApiBody({ type: UnifiedVideoCreateRequestDto })
  @ApiOkResponse({ type: UnifiedVideoView })
  async create(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnifiedVideoView> {
    const context = taskSubmissionContextOf(request);
    const { task, warnings } = await this.videos.create(
      {
        route: '/v1/video/create',
        read: () => toUnifiedVideoRequest(body),
        idempotencyKey: context.idempotencyKey,
      },
      callerKeyOf(request),
      context,
    );
    reply.headers(warningHeader(warnings));
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  @Get('query')
  @ApiOperation({
    summary: 'One of your videos: status, progress, and `video_url` once completed',
  })
  @ApiQuery({ name: 'id', description: 'The `task_id` (or `id`) the create answered.' })
  @ApiOkResponse({ type: UnifiedVideoView })
  async query(@Query('id') id: unknown, @Req() request: FastifyRequest): Promise<UnifiedVideoView> {
    if (typeof id !== 'string' || id === '') {
      throw GatewayError.invalidRequest('id is required: the task_id the create answered.', 'id');
    }
    const task = await this.owned.find(callerKeyOf(request), id);
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }
}
