import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { NativeGenerateRequestDto } from '@gateway/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { ChannelCatalog } from '@gateway/routing';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { GatewayError } from '../errors/gateway-error';
import { gatewayState } from '../http/gateway-request';
import { modelsVisibleTo, nativeModelPage, toNativeModel } from './model-listing';
import { toNativeIngress } from './native-ingress';
import { TextGenerationService } from './text-generation.service';

/** The native-format routes under /v1beta: Bearer, `x-vendor-api-key` or `?key=`. */
@ApiTags('Native format')
@ApiBearerAuth()
@ApiSecurity('vendor-key')
@Controller('v1beta')
@UseGuards(ApiKeyGuard)
export class NativeTextController {
  constructor(
    private readonly text: TextGenerationService,
    private readonly catalog: ChannelCatalog,
  ) {}

  @Get('models')
  @ApiOperation({ summary: 'Models this key may use (native list shape, paginated)' })
  list(
    @Req() request: FastifyRequest,
    @Query('pageSize') pageSize?: string,
    @Query('pageToken') pageToken?: string,
  ) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    return nativeModelPage(modelsVisibleTo(key, this.catalog.offeredModels()), pageSize, pageToken);
  }

  @Get('models/:model')
  @ApiOperation({ summary: 'One model' })
  get(@Req() request: FastifyRequest, @Param('model') model: string) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    if (!modelsVisibleTo(key, this.catalog.offeredModels()).includes(model)) {
      throw new GatewayError(
        'model_not_found',
        `The model 'models/${model}' does not exist or is not available.`,
      );
    }
    return toNativeModel(model);
  }

  @Post('models/:modelAction')
  @HttpCode(200)
  @ApiOperation({
    summary: '{model}:generateContent or {model}:streamGenerateContent',
    description:
      'The path parameter is `{model}:generateContent` (one JSON answer) or `{model}:streamGenerateContent` ' +
      '(with alt=sse: Server-Sent Events, `data: <chunk>` + CRLF CRLF, no done sentinel; without alt: one JSON ' +
      'array written incrementally). Chunks carry cumulative usageMetadata.',
  })
  @ApiBody({ type: NativeGenerateRequestDto })
  @ApiParam({ name: 'modelAction', example: 'kappa-2.0-flash:streamGenerateContent' })
  @ApiQuery({ name: 'alt', required: false, enum: ['sse'] })
  // The path and query values are read from the request rather than through @Param/@Query: Nest runs
  // a pipe step (a Promise.all over async functions) for every such parameter of every request.
  async generate(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { modelAction } = request.params as { modelAction: string };
    const { alt } = request.query as { alt?: string };
    const ingress = toNativeIngress(modelAction, alt, request.body, gatewayState(request).rawBody);
    await this.text.handle(ingress, request, reply);
  }
}
