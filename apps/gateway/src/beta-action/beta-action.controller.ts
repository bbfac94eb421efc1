import { Body, Controller, HttpCode, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import type { GatewayConfig } from '@gateway/config';
import { BetaEnvelopeView, BetaGetResultDto, BetaSubmitTaskDto } from '@gateway/contracts';
import { BETA_API_VERSION, BETA_GET_RESULT_ACTION, BETA_SUBMIT_ACTION } from '@gateway/dialects';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { betaAnswerContextOf } from '../errors/beta-envelope.renderer';
import { warningHeader } from '../generation/warning-header';
import { gatewayState } from '../http/gateway-request';
import { CONFIG } from '../infrastructure/tokens';
import { publicBaseOf } from '../stored-files/stored-file-url.util';
import { idempotencyKeyOf } from '../tasks/idempotency-key.header';
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
@ApiTags('beta')
@ApiBearerAuth()
@ApiExtraModels(BetaSubmitTaskDto, BetaGetResultDto)
@Controller('bt')
@UseGuards(ApiKeyGuard)
export class BetaActionController {
  constructor(
    private readonly submissions: BetaSubmissionService,
    private readonly videoSubmissions: BetaVideoSubmissionService,
    private readonly results: BetaResultService,
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
  @ApiQuery({ name: 'Action', enum: [BETA_SUBMIT_ACTION, BETA_GET_RESULT_ACTION] })
  @ApiQuery({ name: 'Version', enum: [BETA_API_VERSION] })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      'Submission only: a repeated key answers the first task, holding and submitting nothing more.',
  })
  @ApiBody({
    schema: {
      // anyOf, not oneOf: the query's `Action` tells the two bodies apart, not their shape.
      anyOf: [{ $ref: getSchemaPath(BetaSubmitTaskDto) }, { $ref: getSchemaPath(BetaGetResultDto) }],
    },
  })
  @ApiOkResponse({
    description: '`{code, status, message, request_id, time_elapsed, data}`; code 10000 on success.',
    type: BetaEnvelopeView,
  })
  async act(
    @Query() query: Record<string, unknown>,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    const action = betaActionOf(query);
    const key = gatewayState(request).apiKey as ResolvedKey;
    const context = betaAnswerContextOf(request);
    const answer =
      action === 'getResult'
        ? await this.results.getResult(key, body, context, publicBaseOf(this.config.publicBaseUrl, request))
        : isBetaVideoSubmission(body)
          ? await this.videoSubmissions.submit(key, body, context, idempotencyKeyOf(request))
          : await this.submissions.submit(key, body, context, idempotencyKeyOf(request));
    reply.code(answer.httpStatus).headers(warningHeader(answer.warnings ?? []));
    return answer.body;
  }
}
