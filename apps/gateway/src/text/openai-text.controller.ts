import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { OpenAiModelListView, OpenAiModelView } from '@gateway/contracts';
import { ChannelCatalog } from '@gateway/routing';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { modelNotFound } from '../generation/model-admission';
import { gatewayState } from '../http/gateway-request';
import { isModelVisibleTo, modelsVisibleTo, toOpenAiModel } from './model-listing';

@ApiTags('OpenAI-style')
@ApiBearerAuth()
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class OpenAiTextController {
  constructor(private readonly catalog: ChannelCatalog) {}

  @Get('models')
  @ApiOperation({ summary: 'Models this key may use' })
  @ApiOkResponse({ type: OpenAiModelListView })
  list(@Req() request: FastifyRequest) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    return { object: 'list', data: modelsVisibleTo(key, this.catalog.offeredModels()).map(toOpenAiModel) };
  }

  /** The official SDK's `models.retrieve`: a model outside the list is not found, as upstream answers. */
  @Get('models/:model')
  @ApiOperation({ summary: 'One model this key may use' })
  @ApiOkResponse({ type: OpenAiModelView })
  retrieve(@Req() request: FastifyRequest, @Param('model') model: string) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    if (!isModelVisibleTo(key, this.catalog.offeredModels(), model)) throw modelNotFound(model);
    return toOpenAiModel(model);
  }
}
