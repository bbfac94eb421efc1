import { Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import {
  GAMMA_OFFICIAL_ENDPOINTS,
  isGammaOfficialEndpoint,
  type GammaOfficialEndpoint,
} from '@gateway/providers';
import { RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GatewayError } from '@gateway/errors';
import { warningHeader } from '../../../pipeline/warning-header';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import {
  callerKeyOf,
  TaskSubmissionRoute,
  taskSubmissionContextOf,
} from '../../../tasks/task-submission.route';
import { gammaTaskAnswer, GammaTaskEnvelopeView } from './gamma-answers';
import { GAMMA_VIDEO_BODY } from './gamma-video-request';
import type { GammaVideoRequestDto } from './gamma-video-request.dto';
import { GammaVideoTasks } from './gamma-video-tasks.service';

const CREATE_DESCRIPTION =
  'Answers at once with the task `submitted`, in the envelope `{code, message, request_id, data}` ' +
  '(millisecond times). Refused before anything is held, in `{code, message, request_id}` (1201 naming ' +
  'the field): the gamma rules (seconds by model, ratios, sound, files by URL only, at most 3). ' +
  'Fields no gamma channel has a place for (`cfg_scale`, `camera_control`, masks, `element_list`, ' +
  '`multi_shot`, `watermark_info`, `callback_url` …) are ignored and named in `x-gateway-warning`.';
const CREATE_ROUTE = {
  description: CREATE_DESCRIPTION,
  body: GAMMA_VIDEO_BODY,
  answer: GammaTaskEnvelopeView,
};

/**
 * The gamma family's official-compatible wire (upstreams.md §5.8) in front of the gateway's gamma
 * channels. Clients authenticate with their gateway key (Bearer); answers and errors are the wire's.
 * A task made here is a video task like any other: `/v1/videos/{id}` reads it too, and its video
 * downloads from `/v1/videos/{id}/content`.
 */
@InferenceRoutes({ path: 'gamma/v1/videos', dialect: 'gamma', tag: 'gamma' })
export class GammaVideoController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly tasks: GammaVideoTasks,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @TaskSubmissionRoute('text2video', {
    ...CREATE_ROUTE,
    summary: 'Text to video',
  })
  text2video(
    @RouteBody() body: DeclaredBody<GammaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    return this.create('text2video', body, request, reply);
  }

  @TaskSubmissionRoute('image2video', {
    ...CREATE_ROUTE,
    summary: 'Image to video: `image` the first frame, `image_tail` the last',
  })
  image2video(
    @RouteBody() body: DeclaredBody<GammaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    return this.create('image2video', body, request, reply);
  }

  @TaskSubmissionRoute('omni-video', {
    ...CREATE_ROUTE,
    summary: 'Multi-input video: `image_list` (frames, references) and `video_list`',
  })
  omniVideo(
    @RouteBody() body: DeclaredBody<GammaVideoRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    return this.create('omni-video', body, request, reply);
  }

  @Get(':endpoint/:task_id')
  @ApiOperation({
    summary: 'One of your gamma tasks: its status and, once `succeed`, its video',
    description:
      "Under any of the three endpoints. Another account's task, or no gamma task: 404, code 1203.",
  })
  @ApiParam({ name: 'endpoint', enum: GAMMA_OFFICIAL_ENDPOINTS })
  @ApiParam({ name: 'task_id', description: 'The `task_id` the create answered.' })
  @ApiOkResponse({ type: GammaTaskEnvelopeView, headers: RETRY_AFTER_HEADER_DOC })
  async query(
    @Param('endpoint') endpoint: string,
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    if (!isGammaOfficialEndpoint(endpoint)) {
      throw new GatewayError(
        'not_found',
        `There is no endpoint ${endpoint}: use ${GAMMA_OFFICIAL_ENDPOINTS.join(', ')}.`,
      );
    }
    const task = await this.tasks.find(callerKeyOf(request), taskId);
    reply.headers(await this.pollHints.headersFor([task]));
    return gammaTaskAnswer(task, this.baseUrl(request), request.id);
  }

  private async create(
    endpoint: GammaOfficialEndpoint,
    body: DeclaredBody<GammaVideoRequestDto>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    const creation = this.tasks.creation(
      endpoint,
      body,
      callerKeyOf(request),
      taskSubmissionContextOf(request),
    );
    const { task, warnings } = await this.pipeline.createTask(creation, request, reply);
    reply.headers(warningHeader(warnings));
    return gammaTaskAnswer(task, this.baseUrl(request), request.id);
  }

  private baseUrl(request: FastifyRequest): string {
    return publicBaseOf(this.config.publicBaseUrl, request);
  }
}
