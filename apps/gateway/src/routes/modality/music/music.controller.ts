import { Get, Headers, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '@gateway/config';
import { isLambdaClipFile, LAMBDA_ACTIONS, LAMBDA_CLIP_FILES, LAMBDA_SUCCESS_CODE } from '@gateway/dialects';
import { DeclaresBody, RouteBody, type DeclaredBody } from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { BINARY_BODY } from '../../../platform/docs/binary-body.schema';
import { GatewayError } from '@gateway/errors';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../../../tasks/idempotency-key.header';
import { callerKeyOf } from '../../../tasks/task-submission.route';
import { relayOpenedContent } from '../../../tasks/content/content-relay';
import { MusicContentService } from './music-content.service';
import { LAMBDA_FETCH_BODY, MusicFetchService } from './music-fetch.service';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import {
  LambdaSubmissionEnvelopeView,
  LambdaTaskEnvelopeView,
  LambdaTaskListEnvelopeView,
} from './lambda-answers.view';
import { MusicTaskService } from './music-task.service';
import { MUSIC_SUBMIT_BODY } from './music-submission';
import { MAX_FETCH_IDS, type LambdaFetchRequestDto, type LambdaSubmitRequestDto } from './lambda-request.dto';

/** The success envelope of every answer (upstreams.md §9.3, §9.4). */
const success = (data: unknown) => ({ code: LAMBDA_SUCCESS_CODE, message: '', data });

const ENVELOPE_DESCRIPTION =
  '`{code: "success", message: "", data}`; an error is `{code, message, data: null}` with its HTTP status, ' +
  '`code` being the gateway error code (`invalid_request`, `not_found`, `model_not_found`, `insufficient_balance` …).';

/**
 * The lambda music family (upstreams.md §9, interface spec "Other routes") in front of the gateway's
 * lambda channels: submission (not in the interface spec, but without it there is nothing to fetch),
 * the single and batch fetch in the wire's shapes with the gateway's task ids, and the clip files at
 * gateway URLs. Answers and errors are the family's `{code, message, data}` envelope.
 */
@InferenceRoutes({ path: 'lambda', dialect: 'lambda', tag: 'lambda' })
export class MusicController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly tasks: MusicTaskService,
    private readonly fetches: MusicFetchService,
    private readonly content: MusicContentService,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('submit/:action')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Submit a music or lyrics task; answers at once with its task id',
    description:
      'Fields of §9.3: `prompt` (required for lyrics; music needs it or `description_prompt`), ' +
      '`description_prompt`, `mv` (the model, default `lambda-v3-0`; a model no lambda channel offers is ' +
      '404 `model_not_found`), `title`, `tags`, `make_instrumental`, and `continue_clip_id`, `continue_at`, ' +
      '`task_id` together to continue a clip of one of your completed tasks. Other fields pass to the ' +
      'upstream as sent. Billed per task: the perCall of the price row `{mv}:{action}` if the operator ' +
      'priced it, else of `{mv}`; held at submission, captured once the task completes, released if it fails.',
  })
  @ApiParam({ name: 'action', enum: [...LAMBDA_ACTIONS], description: 'Case-insensitive.' })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'At most 255 printable characters. The same key with the same request answers the first task, holding and creating nothing more; with another request, 409.',
  })
  @DeclaresBody(MUSIC_SUBMIT_BODY)
  @ApiOkResponse({
    description: `${ENVELOPE_DESCRIPTION} \`data\` is the task id.`,
    type: LambdaSubmissionEnvelopeView,
  })
  async submit(
    @Param('action') action: string,
    @RouteBody() body: DeclaredBody<LambdaSubmitRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const creation = this.tasks.creation(action, body, callerKeyOf(request), idempotencyKeyOf(request));
    const task = await this.pipeline.createTask(creation, request, reply);
    return success(task.id);
  }

  @Post('fetch')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Several of your music tasks',
    description: `Body \`{"ids": [...]}\`, at most ${MAX_FETCH_IDS} ids; ids that are not your tasks are left out.`,
  })
  @DeclaresBody(LAMBDA_FETCH_BODY)
  @ApiOkResponse({
    description: `${ENVELOPE_DESCRIPTION} \`data\` is the list of tasks (§9.4).`,
    type: LambdaTaskListEnvelopeView,
    headers: RETRY_AFTER_HEADER_DOC,
  })
  async fetchMany(
    @RouteBody() body: DeclaredBody<LambdaFetchRequestDto>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const answer = await this.fetches.many(callerKeyOf(request), body, this.baseUrl(request));
    reply.headers(await this.pollHints.headersFor(answer.tasks));
    return success(answer.view);
  }

  @Get('fetch/:id')
  @ApiOperation({ summary: 'One of your music tasks; 404 for any other id' })
  @ApiParam({ name: 'id' })
  @ApiOkResponse({
    description: `${ENVELOPE_DESCRIPTION} \`data\` is the task (§9.4).`,
    type: LambdaTaskEnvelopeView,
    headers: RETRY_AFTER_HEADER_DOC,
  })
  async fetchOne(
    @Param('id') id: string,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const answer = await this.fetches.one(callerKeyOf(request), id, this.baseUrl(request));
    reply.headers(await this.pollHints.headersFor(answer.tasks));
    return success(answer.view);
  }

  @Get('content/:id/:clipId/:file')
  @ApiOperation({
    summary: 'A file of a clip of one of your completed music tasks, whole or one byte range',
    description: 'The URLs in fetch answers point here; the bytes are streamed from the upstream.',
  })
  @ApiParam({ name: 'file', enum: Object.keys(LAMBDA_CLIP_FILES) })
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range, passed to the upstream.' })
  @ApiProduces('audio/mpeg', 'video/mp4', 'image/jpeg')
  @ApiResponse({ status: 200, description: 'The whole file.', schema: BINARY_BODY })
  @ApiResponse({ status: 206, description: 'The range asked for.', schema: BINARY_BODY })
  @ApiResponse({ status: 404, description: 'Not your task, or a clip or file its upstream no longer has.' })
  @ApiResponse({ status: 409, description: 'The task has not completed.' })
  download(
    @Param('id') id: string,
    @Param('clipId') clipId: string,
    @Param('file') file: string,
    @Headers('range') range: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (!isLambdaClipFile(file)) {
      throw GatewayError.invalidRequest(
        `file must be one of ${Object.keys(LAMBDA_CLIP_FILES).join(', ')}.`,
        'file',
      );
    }
    const key = callerKeyOf(request);
    const asked = { taskId: id, clipId, file, range };
    // relayContent's variant only picks a default type, which the clip file's type replaces.
    return relayOpenedContent(reply, (signal) => this.content.opened(key, asked, signal), 'video');
  }

  private baseUrl(request: FastifyRequest): string {
    return publicBaseOf(this.config.publicBaseUrl, request);
  }
}
