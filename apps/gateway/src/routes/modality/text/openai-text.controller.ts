import { Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { OpenAiModelListView, OpenAiModelView } from '@gateway/contracts';
import { ChannelCatalog } from '@gateway/routing';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { modelNotFound } from '../../../pipeline/model-admission';
import { gatewayState } from '../../../platform/http/gateway-request';
import { isModelVisibleTo, modelsVisibleTo, toOpenAiModel } from './model-listing';

@InferenceRoutes({ path: 'v1', dialect: 'openai', tag: 'OpenAI-style' })
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
