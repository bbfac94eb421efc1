import { randomAlphanumeric } from '../../random-id.util';
import { ScriptedTask, ScriptedTaskPlan, ScriptedTaskStore } from '../../scripted-task.store';

export const ETA_ASSET_TYPES = ['Image', 'Video', 'Audio'];
export type EtaAssetStatus = 'Processing' | 'Active' | 'Failed';

export interface EtaAssetGroup {
  id: string;
  /** The access key that created it: only the same key sees it on the control plane. */
  owner: string;
  name: string;
  description: string;
  groupType: string;
  projectName: string;
  createTimeMs: number;
  updateTimeMs: number;
}

export interface EtaAssetFields {
  groupId: string;
  name: string;
  url: string;
  assetType: string;
  projectName: string;
  status: EtaAssetStatus;
  error?: { Code: string; Message: string };
  updateTimeMs: number;
}

export type EtaAsset = ScriptedTask<EtaAssetFields>;

/** Records are kept 30 days‡ (assets are meant to be reused across generations). */
const RETENTION_MS = 30 * 24 * 3600 * 1000;
const ID_SUFFIX_LENGTH = 5;

/** `group-20260427160000-x1y2z`, `asset-20260528140922-d9646`: a creation stamp and a short random part (§6.5). */
export function newEtaControlId(prefix: 'group' | 'asset', nowMs = Date.now()): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${prefix}-${stamp}-${randomAlphanumeric(ID_SUFFIX_LENGTH).toLowerCase()}`;
}

/**
 * The asset library of the eta control plane (upstreams.md §6.5): groups, and assets whose processing
 * is a scripted task (`polls=`, `task_ms=` delay it; `error=` with `error_after=` fails it) that moves
 * on each time the asset is looked at. The data plane finds assets by id whoever uploaded them (one
 * simulated account behind every key), and takes only those last seen `Active`.
 */
export class EtaAssetLibrary {
  private readonly groups = new Map<string, EtaAssetGroup>();
  private readonly assets = new ScriptedTaskStore<EtaAssetFields>({
    newId: () => newEtaControlId('asset'),
    retentionMs: RETENTION_MS,
  });
  /** Owner by asset id, for the data plane's look-ups (the store finds by owner). */
  private readonly assetOwners = new Map<string, string>();

  createGroup(fields: Omit<EtaAssetGroup, 'id' | 'createTimeMs' | 'updateTimeMs'>): EtaAssetGroup {
    const nowMs = Date.now();
    const group = {
      ...fields,
      id: newEtaControlId('group', nowMs),
      createTimeMs: nowMs,
      updateTimeMs: nowMs,
    };
    this.groups.set(group.id, group);
    return group;
  }

  findGroup(owner: string, id: string): EtaAssetGroup | undefined {
    const group = this.groups.get(id);
    return group?.owner === owner ? group : undefined;
  }

  listGroups(owner: string): EtaAssetGroup[] {
    return [...this.groups.values()].filter((group) => group.owner === owner);
  }

  /** Deletes the group and every asset in it. */
  deleteGroup(group: EtaAssetGroup): void {
    this.groups.delete(group.id);
    for (const asset of this.listAssets(group.owner, [group.id])) this.deleteAsset(asset);
  }

  createAsset(
    owner: string,
    plan: ScriptedTaskPlan,
    fields: Omit<EtaAssetFields, 'status' | 'updateTimeMs'>,
  ): EtaAsset {
    const asset = this.assets.create(owner, plan, {
      ...fields,
      status: 'Processing',
      updateTimeMs: Date.now(),
    });
    this.assetOwners.set(asset.id, owner);
    return asset;
  }

  findAsset(owner: string, id: string): EtaAsset | undefined {
    return this.assetOwners.get(id) === owner ? this.assets.find(owner, id) : undefined;
  }

  listAssets(owner: string, groupIds?: readonly string[]): EtaAsset[] {
    const found: EtaAsset[] = [];
    for (const id of this.assetOwners.keys()) {
      const asset = this.findAsset(owner, id);
      if (asset && (!groupIds || groupIds.includes(asset.fields.groupId))) found.push(asset);
    }
    return found;
  }

  deleteAsset(asset: EtaAsset): void {
    this.assetOwners.delete(asset.id);
  }

  /** Moves processing on by one look: Processing until the script ends it, then Active or Failed. */
  observe(asset: EtaAsset): EtaAssetStatus {
    const { fields } = asset;
    if (fields.status !== 'Processing') return fields.status;
    const step = this.assets.advance(asset);
    if (step.state === 'pending') return fields.status;
    fields.updateTimeMs = Date.now();
    if (step.state === 'failed') {
      fields.status = 'Failed';
      fields.error = {
        Code: step.scripted.code ?? 'InvalidParameter.AssetProcessingFailed',
        Message: 'The asset could not be processed: the file does not meet the asset limits.',
      };
    } else {
      fields.status = 'Active';
    }
    return fields.status;
  }

  /** What the data plane finds behind `asset://<id>`, whoever uploaded it. */
  cited(id: string): EtaAsset | undefined {
    const owner = this.assetOwners.get(id);
    return owner === undefined ? undefined : this.assets.find(owner, id);
  }
}
