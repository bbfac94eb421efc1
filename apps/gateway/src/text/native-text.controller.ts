import { Controller, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiQuery, ApiSecurity, ApiTags } from '@nestjs/swagger';
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
  @ApiQuery({ name: 'alt', required: false, enum: ['sse'] })
  async generate(
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @Param('modelAction') modelAction: string,
    @Query('alt') alt?: string,
  ): Promise<void> {
    const ingress = toNativeIngress(modelAction, alt, request.body, gatewayState(request).rawBody);
    await this.text.handle(ingress, request, reply);
  }
}
