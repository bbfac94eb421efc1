import { Get, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { NativeModelListView, NativeModelView } from '@gateway/contracts';
import { ChannelCatalog } from '@gateway/routing';
import { InferenceRoutes } from '../../../platform/http/inference-routes.decorator';
import { GatewayError } from '@gateway/errors';
import { gatewayState } from '../../../platform/http/gateway-request';
import { isModelVisibleTo, modelsVisibleTo, nativeModelPage, toNativeModel } from './model-listing';

/** The native-format routes under /v1beta: Bearer, `x-vendor-api-key` or `?key=`. Generation: generation-routes.ts. */
@InferenceRoutes({ path: 'v1beta', dialect: 'native', tag: 'Native format' })
export class NativeTextController {
  constructor(private readonly catalog: ChannelCatalog) {}

  @Get('models')
  @ApiOperation({ summary: 'Models this key may use (native list shape, paginated)' })
  @ApiOkResponse({ type: NativeModelListView })
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
  @ApiOkResponse({ type: NativeModelView })
  get(@Req() request: FastifyRequest, @Param('model') model: string) {
    const key = gatewayState(request).apiKey as ResolvedKey;
    if (!isModelVisibleTo(key, this.catalog.offeredModels(), model)) {
      throw new GatewayError(
        'model_not_found',
        `The model 'models/${model}' does not exist or is not available.`,
      );
    }
    return toNativeModel(model);
  }
}
