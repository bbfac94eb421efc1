import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { ApiKeyGuard } from '../../auth/api-key.guard';
import { GatewayError } from '../../errors/gateway-error';
import { gatewayState } from '../../http/gateway-request';
import { AssetActionDocs } from './asset-action.docs';
import { AssetLibraryService } from './asset-library.service';

/**
 * The theta 2.0 asset library (gateway interface, "Asset resources"; upstreams.md §6.5): one route per
 * control-plane action, with the control plane's bodies and `Result` shapes and the gateway's ids.
 */
@ApiTags('Theta 2.0 assets')
@ApiBearerAuth()
@Controller('v1/theta/asset')
@UseGuards(ApiKeyGuard)
export class ThetaAssetController {
  constructor(private readonly library: AssetLibraryService) {}

  @Post(':action')
  @HttpCode(200)
  @ApiOperation({
    summary: 'One action of the asset library',
    description:
      'CreateAssetGroup `{Name, Description?}` → `{Id, GroupId}`; CreateAsset `{GroupId, URL, Name, ' +
      'AssetType: Image|Video|Audio}` → `{Id, AssetId, task_id, Status}`; GetAsset `{Id}` → the asset ' +
      '(`Status` Processing, Active or Failed with `Error`); GetAssetGroup `{Id}`; ListAssets `{Filter?: ' +
      '{GroupIds}, PageNumber?, PageSize?}` and ListAssetGroups → `{Items, TotalCount, PageNumber, ' +
      'PageSize}`; UpdateAsset `{Id, Name}`, UpdateAssetGroup `{Id, Name?, Description?}`, DeleteAsset ' +
      'and DeleteAssetGroup `{Id}` → `{}`. Cite an Active asset in a video as `asset://{AssetId}`.',
  })
  @ApiParam({ name: 'action', description: 'The control-plane action, e.g. `CreateAsset`.' })
  @AssetActionDocs()
  async act(
    @Param('action') action: string,
    @Body() body: unknown,
    @Req() request: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const run = Object.hasOwn(this.library.actions, action) ? this.library.actions[action] : undefined;
    if (!run) {
      throw new GatewayError(
        'not_found',
        `No asset action '${action}'; the actions are ${Object.keys(this.library.actions).join(', ')}.`,
      );
    }
    return run(gatewayState(request).apiKey as ResolvedKey, body);
  }
}
