import { Get, Inject, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { PriceBook } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import { UnifiedVideoView } from '@gateway/contracts';
import type { SerialisableObject } from '@gateway/providers-core';
import { isTheta2VideoModel } from '@gateway/providers';
import { RouteBody, type DeclaredBody } from '../../../../platform/http/declared-body';
import { DeclaredRoute } from '../../../../platform/http/declared-route.decorator';
import { InferenceRoutes } from '../../../../platform/http/inference-routes.decorator';
import { warningHeader } from '../../../../pipeline/warning-header';
import { CONFIG } from '../../../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../../../platform/stored-files/stored-file-url.util';
import { RETRY_AFTER_HEADER_DOC } from '../../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../../tasks/task-poll-hint.service';
import { callerKeyOf, taskSubmissionContextOf } from '../../../../tasks/task-submission.route';
import { OwnedVideoTasks } from '../../../modality/videos/owned-video-tasks.service';
import { unifiedVideoAnswer } from '../../../modality/videos/video-answers';
import { THETA_2_ROUTE, type VideoRouteScope } from '../../../modality/videos/video-admission';
import type { VideoRequestDraft } from '../../../modality/videos/video-request.mapper';
import { GenerationPipeline } from '../../../../pipeline/generation-pipeline';
import { VideoTaskService } from '../../../modality/videos/video-task.service';
import { AssetReferences } from '../assets/asset-references';
import { priceByTokens } from './theta-video-pricing';
import {
  THETA_VIDEO_BODY,
  toThetaVideoDraft,
  type ThetaVideoGenerationRequestDto,
} from './theta-video-request';

const ROUTE = '/v1/video/generations';
/** The theta 2.0 models only, billed by tokens (or, on a row without them, by the second). */
const THETA_2_SCOPE: VideoRouteScope = {
  route: THETA_2_ROUTE,
  servesModel: isTheta2VideoModel,
  billedBy: ['tokens', 'videoSecond'],
};

/**
 * theta 2.0 video (gateway interface, "Theta 2.0 video request"; upstreams.md §6.2): a task like every
 * video task (its hold, row and step job), created from `content[]`, whose `asset://` ids are the
 * caller's Active assets, priced by tokens, and queried here or on any video route.
 */
@InferenceRoutes({ path: 'v1/video/generations', dialect: 'openai', tag: 'Theta 2.0 video' })
export class ThetaVideoController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly videos: VideoTaskService,
    private readonly owned: OwnedVideoTasks,
    private readonly references: AssetReferences,
    private readonly prices: PriceBook,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @DeclaredRoute({
    method: 'POST',
    summary: 'Create a theta 2.0 video task from content items',
    description:
      'At most 9 images, 3 videos (2–15 s together) and 3 audios (15 s at most together, beside an ' +
      'image or a video); first/last frames never with references. `metadata.duration` 4–15 or -1, ' +
      '`metadata.ratio` 16:9, 4:3, 1:1, 3:4, 9:16, 21:9, adaptive; `metadata.resolution` 480p, 720p, ' +
      '1080p (fast: 480p, 720p). Answers at once with the queued task and its `task_id`.',
    body: THETA_VIDEO_BODY,
    answer: UnifiedVideoView,
  })
  async create(
    @RouteBody() body: DeclaredBody<ThetaVideoGenerationRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnifiedVideoView> {
    const key = callerKeyOf(request);
    const context = taskSubmissionContextOf(request);
    const creation = this.videos.creation(
      {
        route: ROUTE,
        read: () => this.read(body, key),
        idempotencyKey: context.idempotencyKey,
        reprice: (admitted) => priceByTokens(admitted, this.prices.priceFor(admitted.model)),
        scope: THETA_2_SCOPE,
      },
      key,
    );
    const { task, warnings } = await this.pipeline.createTask(creation, request, reply);
    reply.headers(warningHeader(warnings));
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  @Get(':task_id')
  @ApiOperation({ summary: 'One of your video tasks: status, and `video_url` once completed' })
  @ApiParam({ name: 'task_id', description: 'The `task_id` the create answered.' })
  @ApiOkResponse({ type: UnifiedVideoView, headers: RETRY_AFTER_HEADER_DOC })
  async query(
    @Param('task_id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UnifiedVideoView> {
    const task = await this.owned.find(callerKeyOf(request), taskId);
    reply.headers(await this.pollHints.headersFor([task]));
    return unifiedVideoAnswer(task, publicBaseOf(this.config.publicBaseUrl, request));
  }

  /** The request, its model a theta 2.0 name, its cited assets resolved to the upstream's ids. */
  private async read(
    body: DeclaredBody<ThetaVideoGenerationRequestDto>,
    key: ResolvedKey,
  ): Promise<VideoRequestDraft> {
    const draft = toThetaVideoDraft(body);
    // Another model cites no assets of this route: admission refuses it (THETA_2_SCOPE), naming its route.
    if (!isTheta2VideoModel(draft.modelName)) return draft;
    const content = draft.fields.extras.content as SerialisableObject[];
    const cited = await this.references.resolve(content, key.accountId);
    return {
      ...draft,
      fields: { ...draft.fields, extras: { ...draft.fields.extras, content: cited.content } },
      ...(cited.channelId === undefined ? {} : { channelId: cited.channelId }),
    };
  }
}
