import { HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import {
  IMAGE_UPLOAD_LIMITS,
  ImageGenerationRequestDto,
  ImageResponseView,
  ImageTaskView,
} from '@gateway/contracts';
import { RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { DeclaredRoute } from '../../../platform/http/declared-route.decorator';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { AcceptsMultipart } from '../../../platform/http/multipart-body.parser';
import { readMultipartForm } from '../../../platform/http/multipart-form.reader';
import { IMAGE_EDIT_BODY, toEditRequest } from './edit-form.mapper';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { gatewayState } from '../../../platform/http/gateway-request';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../../../tasks/idempotency-key.header';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import { ImageGenerationService, type ImageInputOf } from './image-generation.service';
import { ImageJobsService } from './image-jobs.service';
import { IMAGE_GENERATION_BODY, toGenerationRequest } from './image-request.mapper';
import { prefersRespondAsync, RESPOND_ASYNC } from './prefer-header.util';

/** Where a job is read, whichever route created it. */
const IMAGE_TASK_PATH = '/v1/images/generations';

const PREFER_HEADER = {
  name: 'Prefer',
  required: false,
  description:
    '`respond-async` (RFC 7240): answer 202 with an image task at once (its `Location` is ' +
    '`GET /v1/images/generations/{id}`, which carries `data[]` once done); other preferences are ignored.',
};

const IDEMPOTENCY_HEADER = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'With `Prefer: respond-async`: at most 255 printable characters. The same key with the same request ' +
    'answers the first image task, holding and creating nothing more; with another request, 409. A ' +
    'synchronous request ignores it.',
};

/**
 * The OpenAI-style image routes. Not the hot path: an ordinary controller, whose decorators declare
 * each route and its OpenAPI operation once. The generation pipeline answers (it writes the reply);
 * every error leaves through the exception filter in the OpenAI-style envelope. With
 * `Prefer: respond-async`, the same request becomes an image job run by worker-image (202).
 */
@InferenceRoutes({ path: 'v1/images', dialect: 'openai', tag: 'OpenAI-style' })
export class ImagesController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly images: ImageGenerationService,
    private readonly jobs: ImageJobsService,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @DeclaredRoute({
    method: 'POST',
    path: 'generations',
    summary: 'Generate images; the result in the same response',
    description:
      'Family rules (sizes, presets, ratios, counts) are checked before anything is charged; warnings ' +
      'about fallbacks come back in `x-gateway-warning`. `url` answers are gateway URLs under /files.',
    body: IMAGE_GENERATION_BODY,
    answer: ImageResponseView,
  })
  @ApiHeader(PREFER_HEADER)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiAcceptedResponse({ type: ImageTaskView, description: 'With `Prefer: respond-async`: the image task.' })
  generate(
    @RouteBody() body: DeclaredBody<ImageGenerationRequestDto>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const input = { operation: 'generate' as const, read: () => toGenerationRequest(body) };
    if (prefersRespondAsync(request)) return this.startJob(input, request, reply);
    return this.pipeline.serve(this.images, input, request, reply);
  }

  @Post('edits')
  @HttpCode(200)
  @AcceptsMultipart()
  @ApiOperation({
    summary:
      'Edit images: `image` (or repeated `image[]`) files, an optional `mask`, the fields as text parts',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ type: IMAGE_EDIT_BODY.dto })
  @ApiOkResponse({ type: ImageResponseView })
  @ApiHeader(PREFER_HEADER)
  @ApiHeader(IDEMPOTENCY_HEADER)
  @ApiAcceptedResponse({ type: ImageTaskView, description: 'With `Prefer: respond-async`: the image task.' })
  edit(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const readRequest = async () => toEditRequest(await readMultipartForm(request, IMAGE_UPLOAD_LIMITS));
    const input = { operation: 'edit' as const, read: readRequest };
    if (prefersRespondAsync(request)) return this.startJob(input, request, reply);
    return this.pipeline.serve(this.images, input, request, reply);
  }

  @DeclaredRoute({
    method: 'GET',
    path: 'generations/:id',
    summary: 'An image task (`Prefer: respond-async`): its status, and once completed its images',
    description:
      'Completed, it carries `created` and `data[]` exactly as the synchronous answer would (`url` or ' +
      '`b64_json` as the request asked). The same task is `GET /v1/tasks/{id}` (kind image).',
  })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({ type: ImageTaskView, headers: RETRY_AFTER_HEADER_DOC })
  async getTask(
    @Param('id') taskId: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ImageTaskView> {
    const key = gatewayState(request).apiKey as ResolvedKey;
    const { task, view } = await this.jobs.find(
      key,
      taskId,
      publicBaseOf(this.config.publicBaseUrl, request),
    );
    // An unfinished task: when to ask again, from the platform's poll schedule.
    reply.headers(await this.pollHints.headersFor([task]));
    return view;
  }

  /** The request as an image job: admitted and held by the pipeline like any task, answered 202. */
  private async startJob(input: ImageInputOf, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // A malformed Idempotency-Key is refused here, before the pipeline owns the request's log row.
    const context = {
      idempotencyKey: idempotencyKeyOf(request),
      baseUrl: publicBaseOf(this.config.publicBaseUrl, request),
    };
    const state = gatewayState(request);
    // The pipeline writes the log row of a refused job itself.
    state.logRowOwned = true;
    const call = { request, key: state.apiKey as ResolvedKey, startedAt: state.startedAt, model: undefined };
    const { task } = await this.pipeline.createTask(this.jobs.creation(input, call, context), request, reply);
    reply
      .code(202)
      .header('location', `${IMAGE_TASK_PATH}/${task.id}`)
      .header('preference-applied', RESPOND_ASYNC)
      .header('content-type', 'application/json; charset=utf-8')
      .send(task);
  }
}
