import { Body, Controller, Get, Inject, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import {
  GAMMA_OFFICIAL_ENDPOINTS,
  isGammaOfficialEndpoint,
  type GammaOfficialEndpoint,
} from '@gateway/providers';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GatewayError } from '../errors/gateway-error';
import { warningHeader } from '../generation/warning-header';
import { CONFIG } from '../infrastructure/tokens';
import { publicBaseOf } from '../stored-files/stored-file-url.util';
import { callerKeyOf, TaskSubmissionRoute, taskSubmissionContextOf } from '../tasks/task-submission.route';
import { gammaTaskAnswer, GammaTaskEnvelopeView } from './gamma-answers';
import { GammaVideoRequestDto } from './gamma-video-request.dto';
import { GammaVideoTasks } from './gamma-video-tasks.service';

const CREATE_DESCRIPTION =
  'Answers at once with the task `submitted`, in the envelope `{code, message, request_id, data}` ' +
  '(millisecond times). Refused before anything is held, in `{code, message, request_id}` (1201 naming ' +
  'the field): the gamma rules (seconds by model, ratios, sound, files by URL only, at most 3). ' +
  'Fields no gamma channel has a place for (`cfg_scale`, `camera_control`, masks, `element_list`, ' +
  '`multi_shot`, `watermark_info`, `callback_url` …) are ignored and named in `x-gateway-warning`.';
const CREATE_ROUTE = {
  description: CREATE_DESCRIPTION,
  body: GammaVideoRequestDto,
  answer: GammaTaskEnvelopeView,
};

/**
 * The gamma family's official-compatible wire (upstreams.md §5.8) in front of the gateway's gamma
 * channels. Clients authenticate with their gateway key (Bearer); answers and errors are the wire's.
 * A task made here is a video task like any other: `/v1/videos/{id}` reads it too, and its video
 * downloads from `/v1/videos/{id}/content`.
 */
@ApiTags('gamma')
@ApiBearerAuth()
@Controller('gamma/v1/videos')
@UseGuards(ApiKeyGuard)
export class GammaVideoController {
  constructor(
    private readonly tasks: GammaVideoTasks,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @TaskSubmissionRoute('text2video', {
    ...CREATE_ROUTE,
    summary: 'Text to video',
  })
  text2video(
    @Body() body: unknown,
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
    @Body() body: unknown,
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
    @Body() body: unknown,
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
  @ApiOkResponse({ type: GammaTaskEnvelopeView })
  async query(
    @Param('endpoint') endpoint: string,
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
  ): Promise<GammaTaskEnvelopeView> {
    if (!isGammaOfficialEndpoint(endpoint)) {
      throw new GatewayError(
        'not_found',
        `There is no endpoint ${endpoint}: use ${GAMMA_OFFICIAL_ENDPOINTS.join(', ')}.`,
      );
    }
    const task = await this.tasks.find(callerKeyOf(request), taskId);
    return gammaTaskAnswer(task, this.baseUrl(request), request.id);
  }

  private async create(
    endpoint: GammaOfficialEndpoint,
    body: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<GammaTaskEnvelopeView> {
    const { task, warnings } = await this.tasks.create(
      endpoint,
      body,
      callerKeyOf(request),
      taskSubmissionContextOf(request),
    );
    reply.headers(warningHeader(warnings));
    return gammaTaskAnswer(task, this.baseUrl(request), request.id);
  }

  private baseUrl(request: FastifyRequest): string {
    return publicBaseOf(this.config.publicBaseUrl, request);
  }
}
