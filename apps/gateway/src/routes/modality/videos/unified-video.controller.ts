import { Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { UnifiedVideoView, type UnifiedVideoCreateRequestDto } from '@gateway/contracts';
import { RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { DeclaredRoute } from '../../../platform/http/declared-route.decorator';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GatewayError } from '@gateway/errors';
import { warningHeader } from '../../../pipeline/warning-header';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import { callerKeyOf, taskSubmissionContextOf } from '../../../tasks/task-submission.route';
import { OwnedVideoTasks } from './owned-video-tasks.service';
import { unifiedVideoAnswer } from './video-answers';
import { toUnifiedVideoRequest, UNIFIED_VIDEO_BODY } from './video-request.mapper';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { VideoTaskService } from './video-task.service';

/**
 * The unified video routes (gateway interface, "Unified video routes"): the same tasks as
 * `/v1/videos`, created from the unified request and answered with the video object plus `task_id`.
 */
@InferenceRoutes({ path: 'v1/video', dialect: 'openai', tag: 'Unified video' })
export class UnifiedVideoController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @DeclaredRoute({
    method: 'POST',
    path: 'create',
    summary: 'Create a video task; the number of images selects the mode',
    description:
      'No images: text to video; one: first frame; two: first and last frames; `subjects` for ' +
      'reference-to-video. Answers at once with the queued video; query it with `GET /v1/video/query`.',
    body: UNIFIED_VIDEO_BODY,
    answer: UnifiedVideoView,
  })
  async create(
    @RouteBody() body: DeclaredBody<UnifiedVideoCreateRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnifiedVideoView> {
    const context = taskSubmissionContextOf(request);
    const creation = this.videos.creation(
      {
        route: '/v1/video/create',
        read: () => toUnifiedVideoRequest(body),
        idempotencyKey: context.idempotencyKey,
      },
      callerKeyOf(request),
    );
    const { task, warnings } = await this.pipeline.createTask(creation, request, reply);
    reply.headers(warningHeader(warnings));
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  @Get('query')
  @ApiOperation({
    summary: 'One of your videos: status, progress, and `video_url` once completed',
  })
  @ApiQuery({ name: 'id', description: 'The `task_id` (or `id`) the create answered.' })
  @ApiOkResponse({ type: UnifiedVideoView, headers: RETRY_AFTER_HEADER_DOC })
  async query(
    @Query('id') id: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnifiedVideoView> {
    if (typeof id !== 'string' || id === '') {
      throw GatewayError.invalidRequest('id is required: the task_id the create answered.', 'id');
    }
    const task = await this.owned.find(callerKeyOf(request), id);
    reply.headers(await this.pollHints.headersFor([task]));
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }
}
