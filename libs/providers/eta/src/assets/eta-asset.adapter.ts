import {
  isJsonObject,
  malformedAnswerError,
  type AssetAdapter,
  type AssetKind,
  type AssetProcessing,
  type JsonObject,
  type PlainKeyCredentials,
  type UpstreamAsset,
} from '@gateway/providers-core';
import { etaControlPlaneOf, type EtaChannelSettings } from '../eta-channel.settings';
import { callEtaControlAction, createdIdOf, ETA_PROJECT_NAME } from './eta-control-plane.request';

/** §6.5 `AssetType`, by the gateway's kind. */
const ASSET_TYPES: Readonly<Record<AssetKind, string>> = { image: 'Image', video: 'Video', audio: 'Audio' };

/** §6.5 `Status`, as the capability words it. */
const PROCESSING_OF_STATUS: Readonly<Record<string, AssetProcessing>> = {
  Processing: 'processing',
  Active: 'active',
  Failed: 'failed',
};

/** The only group type the platform has for generation references (§6.5). */
const GROUP_TYPE = 'AIGC';

/**
 * The theta 2.0 asset control plane (upstreams.md §6.5): signed Action calls to the channel's second
 * endpoint (its settings), each answering the envelope's `Result`. Every action names the platform's
 * default project.
 */
export const etaAssetAdapter: AssetAdapter<PlainKeyCredentials, EtaChannelSettings> = {
  servesAssets: (channel) => etaControlPlaneOf(channel.settings) !== undefined,

  async createGroup(group, context) {
    const result = await callEtaControlAction(context, 'CreateAssetGroup', {
      Name: group.name,
      Description: group.description,
      GroupType: GROUP_TYPE,
      ProjectName: ETA_PROJECT_NAME,
    });
    return { id: createdIdOf(result) };
  },

  async updateGroup(groupId, changes, context) {
    await callEtaControlAction(context, 'UpdateAssetGroup', {
      Id: groupId,
      ...(changes.name === undefined ? {} : { Name: changes.name }),
      ...(changes.description === undefined ? {} : { Description: changes.description }),
      ProjectName: ETA_PROJECT_NAME,
    });
  },

  async deleteGroup(groupId, context) {
    await callEtaControlAction(context, 'DeleteAssetGroup', { Id: groupId, ProjectName: ETA_PROJECT_NAME });
  },

  async createAsset(asset, context) {
    const result = await callEtaControlAction(context, 'CreateAsset', {
      GroupId: asset.groupId,
      URL: asset.url,
      Name: asset.name,
      AssetType: ASSET_TYPES[asset.kind],
      ProjectName: ETA_PROJECT_NAME,
    });
    return { id: createdIdOf(result) };
  },

  async getAsset(assetId, context) {
    const result = await callEtaControlAction(context, 'GetAsset', {
      Id: assetId,
      ProjectName: ETA_PROJECT_NAME,
    });
    return upstreamAssetOf(result);
  },

  async updateAsset(assetId, changes, context) {
    await callEtaControlAction(context, 'UpdateAsset', {
      Id: assetId,
      Name: changes.name,
      ProjectName: ETA_PROJECT_NAME,
    });
  },

  async deleteAsset(assetId, context) {
    await callEtaControlAction(context, 'DeleteAsset', { Id: assetId, ProjectName: ETA_PROJECT_NAME });
  },
};

/** `GetAsset`'s record: its `Status`, and `Error` when it failed; a status outside §6.5 is malformed. */
function upstreamAssetOf(result: JsonObject): UpstreamAsset {
  const status = typeof result.Status === 'string' ? result.Status : '';
  if (!Object.hasOwn(PROCESSING_OF_STATUS, status)) throw malformedAnswerError(200);
  const processing = PROCESSING_OF_STATUS[status];
  if (processing !== 'failed') return { status: processing };
  const error = isJsonObject(result.Error) ? result.Error : {};
  return {
    status: processing,
    failure: {
      code: typeof error.Code === 'string' ? error.Code : 'Failed',
      message: typeof error.Message === 'string' ? error.Message : 'the upstream could not process the asset',
    },
  };
}
