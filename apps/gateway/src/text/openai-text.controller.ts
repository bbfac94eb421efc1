import { Controller, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { ChatCompletionRequestDto } from '@gateway/contracts';
import { ChannelCatalog } from '@gateway/routing';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { gatewayState } from '../http/gateway-request';
import { modelsVisibleTo, toOpenAiModel } from './model-listing';
import { toOpenAiIngress } from './openai-ingress';
import { TextGenerationService } from './text-generation.service';

@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class OpenAiTextController {
  constructor(
    private readonly text: TextGenerationService,
    private readonly catalog: ChannelCatalog,
  ) {}

  @Get('models')
  @ApiOperation({ summary: 'Models this key may use' })
  list(@Req() request: FastifyRequest) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    return { object: 'list', data: modelsVisibleTo(key, this.catalog.offeredModels()).map(toOpenAiModel) };
  }

  @Post('chat/completions')
  @ApiOperation({ summary: 'Chat completion, whole or streamed (SSE with [DONE])' })
  @ApiBody({ type: ChatCompletionRequestDto })
  async complete(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ingress = toOpenAiIngress(request.body, gatewayState(request).rawBody);
    await this.text.handle(ingress, request, reply);
  }
}
