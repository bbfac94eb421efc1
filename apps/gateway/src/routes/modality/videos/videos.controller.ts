import { Delete, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import {
  VIDEO_LIST_LIMITS,
  VIDEO_LIST_ORDERS,
  VIDEO_UPLOAD_LIMITS,
  VideoCreateRequestDto,
  VideoDeletedView,
  VideoListView,
  VideoObjectView,
  VideoRemixRequestDto,
} from '@gateway/contracts';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GatewayError } from '@gateway/errors';
import { warningHeader } from '../../../pipeline/warning-header';
import { AcceptsMultipart } from '../../../platform/http/multipart-body.parser';
import { readMultipartForm } from '../../../platform/http/multipart-form.reader';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../../../tasks/idempotency-key.header';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import { callerKeyOf } from '../../../tasks/task-submission.route';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { OwnedVideoTasks } from './owned-video-tasks.service';
import { videoListAnswer, videoRemovalAnswer } from './video-answers';
import { videoFormOf } from './video-form.mapper';
import { toVideoListQuery } from './video-list.query';
import { toVideoObject } from './video-object';
import {
  OPENAI_VIDEO_BODY,
  REMIX_VIDEO_BODY,
  toOpenAiVideoRequest,
  toRemixVideoRequest,
} from './video-request.mapper';
import { VideoTaskService, type VideoSubmission } from './video-task.service';

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'At most 255 printable characters. The same key with the same request answers the first video, holding and creating nothing more; with another request, 409.',
};

/**
 * The OpenAI-style video routes (`/v1/videos`), the task platform's front door: a create answers at
 * once with the queued video (worker-video submits and polls it), the others read the caller's own
 * videos. Errors leave in the OpenAI-style envelope. `/v1/videos/{id}/content` has its own controller.
 */
@ApiExtraModels(VideoObjectView, VideoDeletedView)
@InferenceRoutes({ path: 'v1/videos', dialect: 'openai', tag: 'OpenAI-style' })
export class VideosController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary: 'Create a video task; answers at once with the queued video',
    description:
      'JSON or multipart/form-data (repeatable `input_reference` files; `first_frame_image` and `last_frame_image` files for eta-theta 1.x). Family rules (seconds, sizes, ' +
      'ratios, image counts) are checked before anything is held; what they changed comes back in ' +
      '`x-gateway-warning`. The hold is per call + seconds × the price of a second at the resolution.',
  })
  @ApiConsumes('application/json', 'multipart/form-data')
  @ApiHeader(IDEMPOTENCY_HEADER)
  @DeclaresBody(OPENAI_VIDEO_BODY)
  @ApiOkResponse({ type: VideoObjectView })
  async create(
    @RouteBody() body: DeclaredBody<VideoCreateRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VideoObjectView> {
    const read = isMultipart(request)
      ? async () => {
          const form = videoFormOf(await readMultipartForm(request, VIDEO_UPLOAD_LIMITS));
          return toOpenAiVideoRequest(form.body, form.uploads, form.frames);
        }
      : () => toOpenAiVideoRequest(body);
    return this.submit(
      { route: '/v1/videos', read, idempotencyKey: idempotencyKeyOf(request) },
      request,
      reply,
    );
  }

  @Get()
  @ApiOperation({ summary: 'List your videos, newest first unless order=asc' })
  @ApiQuery({ name: 'after', required: false, description: 'The id of the video the page starts after.' })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `1–${VIDEO_LIST_LIMITS.maxLimit}, default ${VIDEO_LIST_LIMITS.defaultLimit}.`,
  })
  @ApiQuery({ name: 'order', required: false, enum: [...VIDEO_LIST_ORDERS] })
  @ApiOkResponse({ type: VideoListView })
  async list(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
  ): Promise<VideoListView> {
    const page = await this.owned.list(callerKeyOf(request), toVideoListQuery(query));
    return videoListAnswer(page, this.baseUrl(request));
  }

  @Get(':video_id')
  @ApiOperation({ summary: 'One of your videos: status, progress, and `video_url` once completed' })
  @ApiParam({ name: 'video_id' })
  @ApiOkResponse({ type: VideoObjectView, headers: RETRY_AFTER_HEADER_DOC })
  async retrieve(
    @Param('video_id') videoId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VideoObjectView> {
    const task = await this.owned.find(callerKeyOf(request), videoId);
    reply.headers(await this.pollHints.headersFor([task]));
    return toVideoObject(task, this.baseUrl(request));
  }

  @Delete(':video_id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Delete a finished video from your listings, or cancel an unfinished one',
    description:
      'Finished: `{id, object: "video.deleted", deleted: true}`, and 404 from then on. Unfinished: ' +
      'cancelled for free (its hold released) and answered while no upstream has taken it, or where ' +
      'the wire cancels it; otherwise 409 `task_not_cancellable`, and the video completes and is billed.',
  })
  @ApiParam({ name: 'video_id' })
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(VideoDeletedView) }, { $ref: getSchemaPath(VideoObjectView) }] },
  })
  async remove(
    @Param('video_id') videoId: string,
    @Req() request: FastifyRequest,
  ): Promise<VideoDeletedView | VideoObjectView> {
    return videoRemovalAnswer(await this.owned.remove(callerKeyOf(request), videoId), this.baseUrl(request));
  }

  @Post(':video_id/remix')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new video from a completed one of yours, on the channel that made it',
    description: 'Only families whose wire has remix or extension (`epsilon_3_1-extend` …); others: 400.',
  })
  @ApiParam({ name: 'video_id' })
  @ApiHeader(IDEMPOTENCY_HEADER)
  @DeclaresBody(REMIX_VIDEO_BODY)
  @ApiOkResponse({ type: VideoObjectView })
  async remix(
    @Param('video_id') videoId: string,
    @RouteBody() body: DeclaredBody<VideoRemixRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<VideoObjectView> {
    const source = await this.owned.find(callerKeyOf(request), videoId);
    if (source.status !== 'completed' || source.upstreamHandle === null) {
      throw GatewayError.invalidRequest(
        `Only a completed video can be remixed; this one is ${source.status}.`,
        'video_id',
      );
    }
    const read = () => {
      const remix = toRemixVideoRequest(body);
      return { modelName: remix.modelName ?? source.model, fields: remix.fields };
    };
    const route = '/v1/videos/{video_id}/remix';
    return this.submit(
      { route, read, idempotencyKey: idempotencyKeyOf(request), remixOf: source },
      request,
      reply,
    );
  }

  private async submit(
    submission: VideoSubmission,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<VideoObjectView> {
    const creation = this.videos.creation(submission, callerKeyOf(request));
    const { task, warnings } = await this.pipeline.createTask(creation, request, reply);
    reply.headers(warningHeader(warnings));
    return toVideoObject(task, this.baseUrl(request));
  }

  private baseUrl(request: FastifyRequest): string {
    return publicBaseOf(this.config.publicBaseUrl, request);
  }
}

function isMultipart(request: FastifyRequest): boolean {
  return request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data') === true;
}
