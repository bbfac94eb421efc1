import type { AdapterContext, ChannelConnection } from '../adapter-context';

/** What an uploaded reference is. */
export type AssetKind = 'image' | 'video' | 'audio';

/** Where the upstream's processing of an uploaded asset stands; only `active` assets may be cited. */
export type AssetProcessing = 'processing' | 'active' | 'failed';

export interface NewAssetGroup {
  name: string;
  description: string;
}

export interface NewAsset {
  /** The upstream's id of the group it goes into. */
  groupId: string;
  /** Public http(s), checked by the gateway's address policy before it gets here. */
  url: string;
  name: string;
  kind: AssetKind;
}

/** What the upstream says of one asset. */
export interface UpstreamAsset {
  status: AssetProcessing;
  /** Why processing failed, when it did. */
  failure?: { code: string; message: string };
}

/**
 * The asset capability: the control plane of a library of uploaded references (groups of assets that
 * later generations cite by id). Ids in and out are the upstream's; the gateway keeps its own rows
 * (owner, names, status) and maps its public ids onto these, so the listings the clients see are
 * answered from those rows, never from the upstream's account-wide lists. Every call throws
 * UpstreamError for an upstream failure. Members are methods for the reason given on TextAdapter.
 */
export interface AssetAdapter<Credentials = unknown, Settings = unknown> {
  /** Whether this channel is configured for the control plane (a type may have it as an option). */
  servesAssets(channel: ChannelConnection<Credentials, Settings>): boolean;
  createGroup(group: NewAssetGroup, context: AdapterContext<Credentials, Settings>): Promise<{ id: string }>;
  updateGroup(
    groupId: string,
    changes: Partial<NewAssetGroup>,
    context: AdapterContext<Credentials, Settings>,
  ): Promise<void>;
  deleteGroup(groupId: string, context: AdapterContext<Credentials, Settings>): Promise<void>;
  /** Starts an upload; the upstream processes it afterwards (see getAsset). */
  createAsset(asset: NewAsset, context: AdapterContext<Credentials, Settings>): Promise<{ id: string }>;
  getAsset(assetId: string, context: AdapterContext<Credentials, Settings>): Promise<UpstreamAsset>;
  updateAsset(
    assetId: string,
    changes: { name: string },
    context: AdapterContext<Credentials, Settings>,
  ): Promise<void>;
  deleteAsset(assetId: string, context: AdapterContext<Credentials, Settings>): Promise<void>;
}
