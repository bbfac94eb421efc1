import { Injectable } from '@nestjs/common';
import type { ResolvedKey } from '@gateway/auth';
import type { Asset, AssetGroup } from '@gateway/db';
import {
  RequestCancellation,
  UpstreamError,
  type AdapterContext,
  type AssetAdapter,
  type AssetKind,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import { AdapterContexts } from '../../../../pipeline/adapter-contexts';
import { toClientError } from '@gateway/routing';
import { assetRecord, groupRecord, pageRecord } from './asset-answers';
import { AssetChannels, type AssetChannel } from './asset-channels';
import { isAssetGroupId, isAssetId, newAssetGroupId, newAssetId } from './asset-ids';
import type { DeclaredBody } from '../../../../platform/http/declared-body';
import type { AssetAction, AssetActionBodies } from './asset-action.bodies';
import type {
  AssetIdRequestDto,
  CreateAssetGroupRequestDto,
  CreateAssetRequestDto,
  ListAssetGroupsRequestDto,
  ListAssetsRequestDto,
  UpdateAssetGroupRequestDto,
  UpdateAssetRequestDto,
  AssetTypeName,
} from './asset-requests';
import { AssetStatusQueue } from './asset-status.queue';
import type { AssetStore, Page } from './asset-store';
import { AssetStoreLoader } from './asset-store.loader';
import { AssetUrlCheck } from './asset-url-check';

type Answer = Record<string, unknown>;
/** Each action, given its body as the route declared it (ASSET_ACTION_BODIES). */
type Actions = {
  readonly [Action in AssetAction]: (
    key: ResolvedKey,
    body: DeclaredBody<AssetActionBodies[Action]>,
  ) => Promise<Answer>;
};

const KIND_OF_TYPE: Readonly<Record<AssetTypeName, AssetKind>> = {
  Image: 'image',
  Video: 'video',
  Audio: 'audio',
};
const DEFAULT_PAGE_SIZE = 10;

/**
 * The actions of `POST /v1/theta/asset/{Action}`, one-to-one with the control plane's (upstreams.md
 * §6.5), in its shapes with the gateway's ids. Creations, updates and deletions go to the upstream and
 * are recorded in the account's rows; reads and listings answer from those rows, so that an account
 * sees only what it made, and another account's id is a 404. worker-assets keeps each asset's status
 * current; GetAsset answers it as stored.
 */
@Injectable()
export class AssetLibraryService {
  /** The actions by name, as the route takes them; each validates its body before anything else. */
  private readonly actions: Actions = {
    CreateAssetGroup: (key, body) => this.createGroup(key, body.fields()),
    GetAssetGroup: async (key, body) => groupRecord(await this.ownedGroup(key, body.fields().Id)),
    ListAssetGroups: (key, body) => this.listGroups(key, body.fields()),
    UpdateAssetGroup: (key, body) => this.updateGroup(key, body.fields()),
    DeleteAssetGroup: (key, body) => this.deleteGroup(key, body.fields()),
    CreateAsset: (key, body) => this.createAsset(key, body.fields()),
    GetAsset: async (key, body) => (await this.getAsset(key, body)).answer,
    ListAssets: (key, body) => this.listAssets(key, body.fields()),
    UpdateAsset: (key, body) => this.updateAsset(key, body.fields()),
    DeleteAsset: (key, body) => this.deleteAsset(key, body.fields()),
  };

  constructor(
    private readonly stores: AssetStoreLoader,
    private readonly channels: AssetChannels,
    private readonly contexts: AdapterContexts,
    private readonly statusQueue: AssetStatusQueue,
    private readonly urlCheck: AssetUrlCheck,
  ) {}

  /** Runs `action` with its body. */
  run<Action extends AssetAction>(
    action: Action,
    key: ResolvedKey,
    body: DeclaredBody<AssetActionBodies[Action]>,
  ): Promise<Answer> {
    return this.actions[action](key, body);
  }

  /** GetAsset, with the asset's row for the route's poll hint. */
  async getAsset(
    key: ResolvedKey,
    body: DeclaredBody<AssetIdRequestDto>,
  ): Promise<{ answer: Answer; asset: { id: string; status: string } }> {
    const asset = await this.ownedAsset(key, body.fields().Id);
    return { answer: assetRecord(asset), asset };
  }

  private async createGroup(key: ResolvedKey, request: CreateAssetGroupRequestDto): Promise<Answer> {
    const channel = this.channels.forNewGroup();
    const description = request.Description ?? '';
    const upstream = await this.upstream(channel, (adapter, context) =>
      adapter.createGroup({ name: request.Name, description }, context),
    );
    const group = await (
      await this.store()
    ).createGroup({
      id: newAssetGroupId(),
      accountId: key.accountId,
      channelId: channel.candidate.id,
      upstreamId: upstream.id,
      name: request.Name,
      description,
    });
    return { Id: group.id, GroupId: group.id };
  }

  /** The URL is checked (AssetUrlCheck: every redirect hop) before the upstream is asked to fetch it. */
  private async createAsset(key: ResolvedKey, request: CreateAssetRequestDto): Promise<Answer> {
    const group = await this.ownedGroup(key, request.GroupId, 'GroupId');
    await this.urlCheck.assertPublic(request.URL);
    const channel = this.channels.byId(group.channelId);
    const upstream = await this.upstream(channel, (adapter, context) =>
      adapter.createAsset(
        {
          groupId: group.upstreamId,
          url: request.URL,
          name: request.Name,
          kind: KIND_OF_TYPE[request.AssetType],
        },
        context,
      ),
    );
    const asset = await (
      await this.store()
    ).createAsset({
      id: newAssetId(),
      accountId: key.accountId,
      groupId: group.id,
      channelId: group.channelId,
      upstreamId: upstream.id,
      name: request.Name,
      url: request.URL,
      assetType: request.AssetType,
    });
    await this.statusQueue.enqueue(asset.id);
    return { Id: asset.id, AssetId: asset.id, task_id: asset.id, Status: asset.status };
  }

  private async listGroups(key: ResolvedKey, request: ListAssetGroupsRequestDto): Promise<Answer> {
    const page = pageOf(request);
    return pageRecord(await (await this.store()).listGroups(key.accountId, page), page, groupRecord);
  }

  private async listAssets(key: ResolvedKey, request: ListAssetsRequestDto): Promise<Answer> {
    const page = pageOf(request);
    const groupIds = request.Filter?.GroupIds ?? undefined;
    return pageRecord(
      await (await this.store()).listAssets(key.accountId, groupIds, page),
      page,
      assetRecord,
    );
  }

  private async updateGroup(key: ResolvedKey, request: UpdateAssetGroupRequestDto): Promise<Answer> {
    const group = await this.ownedGroup(key, request.Id);
    const changes = {
      ...(request.Name ? { name: request.Name } : {}),
      ...(request.Description !== undefined && request.Description !== null
        ? { description: request.Description }
        : {}),
    };
    await this.upstream(this.channels.byId(group.channelId), (adapter, context) =>
      adapter.updateGroup(group.upstreamId, changes, context),
    );
    await (await this.store()).renameGroup(group.id, changes);
    return {};
  }

  private async updateAsset(key: ResolvedKey, request: UpdateAssetRequestDto): Promise<Answer> {
    const asset = await this.ownedAsset(key, request.Id);
    await this.upstream(this.channels.byId(asset.channelId), (adapter, context) =>
      adapter.updateAsset(asset.upstreamId, { name: request.Name }, context),
    );
    await (await this.store()).renameAsset(asset.id, request.Name);
    return {};
  }

  private async deleteGroup(key: ResolvedKey, request: AssetIdRequestDto): Promise<Answer> {
    const group = await this.ownedGroup(key, request.Id);
    await this.upstreamDeletion(this.channels.byId(group.channelId), (adapter, context) =>
      adapter.deleteGroup(group.upstreamId, context),
    );
    await (await this.store()).deleteGroup(group.id);
    return {};
  }

  private async deleteAsset(key: ResolvedKey, request: AssetIdRequestDto): Promise<Answer> {
    const asset = await this.ownedAsset(key, request.Id);
    await this.upstreamDeletion(this.channels.byId(asset.channelId), (adapter, context) =>
      adapter.deleteAsset(asset.upstreamId, context),
    );
    await (await this.store()).deleteAsset(asset.id);
    return {};
  }

  private async ownedGroup(key: ResolvedKey, id: string, param = 'Id'): Promise<AssetGroup> {
    const group = isAssetGroupId(id) ? await (await this.store()).findGroup(id, key.accountId) : null;
    if (!group) throw new GatewayError('not_found', `No asset group found with id '${id}'.`, { param });
    return group;
  }

  private async ownedAsset(key: ResolvedKey, id: string): Promise<Asset> {
    const asset = isAssetId(id) ? await (await this.store()).findAsset(id, key.accountId) : null;
    if (!asset) throw new GatewayError('not_found', `No asset found with id '${id}'.`, { param: 'Id' });
    return asset;
  }

  /** One control-plane call on the channel; an upstream failure is the client's error of its class. */
  private async upstream<T>(
    channel: AssetChannel,
    act: (adapter: AssetAdapter, context: AdapterContext) => Promise<T>,
  ): Promise<T> {
    try {
      return await act(channel.adapter, this.contexts.for(channel.candidate, new RequestCancellation()));
    } catch (error) {
      if (error instanceof UpstreamError) throw toClientError(error.failure);
      throw error;
    }
  }

  /** A deletion the upstream has already forgotten (its NotFound) is done: the rows follow it. */
  private upstreamDeletion(
    channel: AssetChannel,
    act: (adapter: AssetAdapter, context: AdapterContext) => Promise<void>,
  ): Promise<void> {
    return this.upstream(channel, async (adapter, context) => {
      try {
        await act(adapter, context);
      } catch (error) {
        if (!(error instanceof UpstreamError && error.failure.upstreamCode?.startsWith('NotFound')))
          throw error;
      }
    });
  }

  private store(): Promise<AssetStore> {
    return this.stores.store();
  }
}

function pageOf(request: ListAssetGroupsRequestDto): Page {
  return { number: request.PageNumber ?? 1, size: request.PageSize ?? DEFAULT_PAGE_SIZE };
}
