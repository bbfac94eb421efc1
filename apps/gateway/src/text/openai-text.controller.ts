import { Controller, Get, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { ChannelCatalog } from '@gateway/routing';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { gatewayState } from '../http/gateway-request';
import { modelsVisibleTo, toOpenAiModel } from './model-listing';

@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class OpenAiTextController {
  constructor(private readonly catalog: ChannelCatalog) {}

  @Get('models')
  @ApiOperation({ summary: 'Models this key may use' })
  list(@Req() request: FastifyRequest) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    return { object: 'list', data: modelsVisibleTo(key, this.catalog.offeredModels()).map(toOpenAiModel) };
  }
}
