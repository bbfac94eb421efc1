import { Body, Controller, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
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
import { BetaGetResultDto, BetaSubmitTaskDto } from '@gateway/contracts';
import { BETA_API_VERSION, BETA_GET_RESULT_ACTION, BETA_SUBMIT_ACTION } from '@gateway/dialects';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { betaAnswerContextOf } from '../errors/beta-envelope.renderer';
import { GatewayError } from '../errors/gateway-error';
import { gatewayState } from '../http/gateway-request';
import { betaActionOf } from './beta-action.query';
import { BetaResultService } from './beta-result.service';
import { BetaSubmissionService } from './beta-submission.service';

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
    private readonly results: BetaResultService,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: `${BETA_SUBMIT_ACTION}: submit an image task; ${BETA_GET_RESULT_ACTION}: query one of your tasks`,
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
      oneOf: [{ $ref: getSchemaPath(BetaSubmitTaskDto) }, { $ref: getSchemaPath(BetaGetResultDto) }],
    },
  })
  @ApiOkResponse({
    description: '`{code, status, message, request_id, time_elapsed, data}`; code 10000 on success.',
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
      action === 'submit'
        ? await this.submissions.submit(key, body, context, idempotencyKeyOf(request))
        : await this.results.getResult(key, body, context);
    reply.code(answer.httpStatus);
    return answer.body;
  }
}

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** The `Idempotency-Key` header, when the client sent one (once). */
function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (typeof value !== 'string' || value === '') return undefined;
  if (value.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw GatewayError.invalidRequest(
      `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`,
      'Idempotency-Key',
    );
  }
  return value;
}
