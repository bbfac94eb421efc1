import { HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ResolvedKey } from '@gateway/auth';
import { DeclaresBody, RouteBody, type ChosenBody } from '../../../../platform/http/declared-body';
import { InferenceRoutes } from '../../../../platform/http/inference-routes.decorator';
import { GatewayError } from '@gateway/errors';
import { gatewayState } from '../../../../platform/http/gateway-request';
import { TaskPollHints } from '../../../../tasks/task-poll-hint.service';
import { AssetActionDocs } from './asset-action.docs';
import {
  ASSET_ACTION_BODIES,
  ASSET_ACTIONS,
  isAssetAction,
  type AssetActionBodies,
} from './asset-action.bodies';
import { AssetLibraryService } from './asset-library.service';

/**
 * The theta 2.0 asset library (gateway interface, "Asset resources"; upstreams.md §6.5): one route per
 * control-plane action, with the control plane's bodies and `Result` shapes and the gateway's ids.
 */
@InferenceRoutes({ path: 'v1/theta/asset', dialect: 'openai', tag: 'Theta 2.0 assets' })
export class ThetaAssetController {
  constructor(
    private readonly library: AssetLibraryService,
    private readonly pollHints: TaskPollHints,
  ) {}

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
  @DeclaresBody(ASSET_ACTION_BODIES)
  @AssetActionDocs()
  async act(
    @Param('action') action: string,
    @RouteBody() body: ChosenBody<AssetActionBodies>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Record<string, unknown>> {
    if (!isAssetAction(action)) {
      throw new GatewayError(
        'not_found',
        `No asset action '${action}'; the actions are ${ASSET_ACTIONS.join(', ')}.`,
      );
    }
    const key = gatewayState(request).apiKey as ResolvedKey;
    if (action === 'GetAsset') {
      // An asset still processing: when worker-assets looks at it next, as a task query says it.
      const { answer, asset } = await this.library.getAsset(key, body.as(action));
      reply.headers(await this.pollHints.assetHeadersFor(asset));
      return answer;
    }
    return this.library.run(action, key, body.as(action));
  }
}
