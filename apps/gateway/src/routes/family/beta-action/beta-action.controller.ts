import { HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { BetaEnvelopeView, type BetaSubmitTaskDto } from '@gateway/contracts';
import { BETA_API_VERSION, BETA_GET_RESULT_ACTION, BETA_SUBMIT_ACTION } from '@gateway/dialects';
import {
  DeclaresBody,
  RouteBody,
  type ChosenBody,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { betaAnswerContextOf } from '../../../platform/errors/beta-envelope.renderer';
import { warningHeader } from '../../../pipeline/warning-header';
import { gatewayState } from '../../../platform/http/gateway-request';
import { CONFIG } from '../../../platform/infrastructure/tokens';
import { GenerationPipeline } from '../../../pipeline/generation-pipeline';
import { publicBaseOf } from '../../../platform/stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../../../tasks/idempotency-key.header';
import { RETRY_AFTER_HEADER_DOC } from '../../../tasks/query/retry-after.header';
import { TaskPollHints } from '../../../tasks/task-poll-hint.service';
import type { BetaAnswer } from './beta-answer';
import { BETA_ACTION_BODIES, type BetaActionBodies } from './beta-action.bodies';
import { betaActionOf } from './beta-action.query';
import { BetaResultService } from './beta-result.service';
import { BetaSubmissionService } from './beta-submission.service';
import { isBetaVideoSubmission } from './beta-video-submission';
import { BetaVideoSubmissionService } from './beta-video-submission.service';

/**
 * The beta family's official Action API (upstreams.md §4.3–§4.4) in front of the gateway's beta
 * channels. Clients authenticate with their gateway key (Bearer); the gateway signs upstream with the
 * channel's own credentials. Answers and errors are the family's envelopes.
 */
@InferenceRoutes({ path: 'bt', dialect: 'beta', tag: 'beta' })
export class BetaActionController {
  constructor(
    private readonly pipeline: GenerationPipeline,
    private readonly submissions: BetaSubmissionService,
    private readonly videoSubmissions: BetaVideoSubmissionService,
    private readonly results: BetaResultService,
    private readonly pollHints: TaskPollHints,
    @Inject(CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: `${BETA_SUBMIT_ACTION}: submit an image or video task; ${BETA_GET_RESULT_ACTION}: query one of your tasks`,
    description:
      'The `req_key` chooses: an image key runs an image task, a video key (upstreams §4.3) a video task ' +
      '(`frames`, `aspect_ratio`, `seed`, 0–2 images by the mode), held at the model’s video prices. A done ' +
      'video answers `{status: "done", video_url}` with the gateway’s content URL.',
  })
  @DeclaresBody(BETA_ACTION_BODIES)
  @ApiQuery({ name: 'Version', enum: [BETA_API_VERSION] })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Submission only: a repeated key answers the first task, holding and submitting nothing more.',
  })
  @ApiOkResponse({
    description: '`{code, status, message, request_id, time_elapsed, data}`; code 10000 on success.',
    type: BetaEnvelopeView,
    headers: RETRY_AFTER_HEADER_DOC,
  })
  async act(
    @Query() query: Record<string, unknown>,
    @RouteBody() body: ChosenBody<BetaActionBodies>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const action = betaActionOf(query);
    const key = gatewayState(request).apiKey as ResolvedKey;
    const context = betaAnswerContextOf(request);
    const answer =
      action === 'getResult'
        ? await this.results.getResult(
            key,
            body.as(BETA_GET_RESULT_ACTION),
            context,
            publicBaseOf(this.config.publicBaseUrl, request),
          )
        : await this.submit(key, body.as(BETA_SUBMIT_ACTION), request, reply);
    reply.code(answer.httpStatus).headers(warningHeader(answer.warnings ?? []));
    // A query of an unfinished task: when to ask again, from the platform's poll schedule.
    if (answer.openTask) reply.headers(await this.pollHints.headersFor([answer.openTask]));
    return answer.body;
  }

  /** A video `req_key` runs a video task, any other an image task: either way, one pipeline. */
  private submit(
    key: ResolvedKey,
    body: DeclaredBody<BetaSubmitTaskDto>,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<BetaAnswer> {
    const context = betaAnswerContextOf(request);
    const idempotencyKey = idempotencyKeyOf(request);
    return isBetaVideoSubmission(body.raw)
      ? this.pipeline.createTask(
          this.videoSubmissions.creation(key, body, context, idempotencyKey),
          request,
          reply,
        )
      : this.pipeline.createTask(
          this.submissions.creation(key, body, context, idempotencyKey),
          request,
          reply,
        );
  }
}
