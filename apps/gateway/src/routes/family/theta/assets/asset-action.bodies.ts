import type { Type } from '@nestjs/common';
import type { BodyChoice, BodyDeclaration } from '../../../../platform/http/declared-body';
import {
  AssetIdRequestDto,
  CreateAssetGroupRequestDto,
  CreateAssetRequestDto,
  ListAssetGroupsRequestDto,
  ListAssetsRequestDto,
  readAssetRequest,
  UpdateAssetGroupRequestDto,
  UpdateAssetRequestDto,
} from './asset-requests';

/** The body of each action of `POST /v1/theta/asset/{action}` (upstreams.md §6.5). */
export interface AssetActionBodies {
  CreateAssetGroup: CreateAssetGroupRequestDto;
  GetAssetGroup: AssetIdRequestDto;
  ListAssetGroups: ListAssetGroupsRequestDto;
  UpdateAssetGroup: UpdateAssetGroupRequestDto;
  DeleteAssetGroup: AssetIdRequestDto;
  CreateAsset: CreateAssetRequestDto;
  GetAsset: AssetIdRequestDto;
  ListAssets: ListAssetsRequestDto;
  UpdateAsset: UpdateAssetRequestDto;
  DeleteAsset: AssetIdRequestDto;
}

export type AssetAction = keyof AssetActionBodies;

function assetBody<Fields extends object>(dto: Type<Fields>): BodyDeclaration<Fields> {
  return { dto, validate: (dtoClass, body) => readAssetRequest(dtoClass, body) };
}

/** The route's body, chosen by the action in its path. */
export const ASSET_ACTION_BODIES: BodyChoice<AssetActionBodies> = {
  chosenBy: { path: 'action' },
  description: 'The control-plane action, e.g. `CreateAsset`.',
  bodyDescription: 'The action’s body; see the operation’s description.',
  bodies: {
    CreateAssetGroup: assetBody(CreateAssetGroupRequestDto),
    GetAssetGroup: assetBody(AssetIdRequestDto),
    ListAssetGroups: assetBody(ListAssetGroupsRequestDto),
    UpdateAssetGroup: assetBody(UpdateAssetGroupRequestDto),
    DeleteAssetGroup: assetBody(AssetIdRequestDto),
    CreateAsset: assetBody(CreateAssetRequestDto),
    GetAsset: assetBody(AssetIdRequestDto),
    ListAssets: assetBody(ListAssetsRequestDto),
    UpdateAsset: assetBody(UpdateAssetRequestDto),
    DeleteAsset: assetBody(AssetIdRequestDto),
  },
};

/** Whether `name` is an action of the library (as the path gives it, case-sensitive). */
export function isAssetAction(name: string): name is AssetAction {
  return Object.hasOwn(ASSET_ACTION_BODIES.bodies, name);
}

/** The actions, in the order the route's refusal of an unknown one lists them. */
export const ASSET_ACTIONS = Object.keys(ASSET_ACTION_BODIES.bodies) as AssetAction[];
