import { createPrismaClient, type Asset, type AssetGroup, type PrismaClient } from '@gateway/db';
import type { Pool } from 'pg';
import { taskStoreUnavailable } from '../../../../tasks/task-store-unavailable';

export interface Page {
  /** 1-based. */
  number: number;
  size: number;
}

export interface Listing<Row> {
  rows: Row[];
  total: number;
}

export type NewAssetGroupRow = Pick<
  AssetGroup,
  'id' | 'accountId' | 'channelId' | 'upstreamId' | 'name' | 'description'
>;
export type NewAssetRow = Pick<
  Asset,
  'id' | 'accountId' | 'groupId' | 'channelId' | 'upstreamId' | 'name' | 'url' | 'assetType'
>;

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/**
 * The rows of the asset library. Every read is by owner and skips deleted rows: whoever else asks,
 * or asks after a delete, finds nothing. Status changes are worker-assets' (it owns the processing);
 * the gateway writes rows, names and deletions. A read or write that fails (the database away) is
 * the task routes' 503 (taskStoreUnavailable), never a 500.
 */
export class AssetStore {
  private readonly prisma: PrismaClient;

  constructor(pool: Pool) {
    this.prisma = createPrismaClient(pool);
  }

  createGroup(row: NewAssetGroupRow): Promise<AssetGroup> {
    return this.prisma.assetGroup.create({ data: row }).catch(taskStoreUnavailable);
  }

  findGroup(id: string, accountId: string): Promise<AssetGroup | null> {
    return this.prisma.assetGroup
      .findFirst({ where: { id, accountId, deletedAt: null } })
      .catch(taskStoreUnavailable);
  }

  async listGroups(accountId: string, page: Page): Promise<Listing<AssetGroup>> {
    const where = { accountId, deletedAt: null };
    const [rows, total] = await Promise.all([
      this.prisma.assetGroup.findMany({ where, orderBy: NEWEST_FIRST, ...window(page) }),
      this.prisma.assetGroup.count({ where }),
    ]).catch(taskStoreUnavailable);
    return { rows, total };
  }

  async renameGroup(id: string, changes: { name?: string; description?: string }): Promise<void> {
    await this.prisma.assetGroup.update({ where: { id }, data: changes }).catch(taskStoreUnavailable);
  }

  /** The group and its assets leave every listing and look-up. */
  async deleteGroup(id: string): Promise<void> {
    const deletedAt = new Date();
    await this.prisma
      .$transaction([
        this.prisma.asset.updateMany({ where: { groupId: id, deletedAt: null }, data: { deletedAt } }),
        this.prisma.assetGroup.update({ where: { id }, data: { deletedAt } }),
      ])
      .catch(taskStoreUnavailable);
  }

  createAsset(row: NewAssetRow): Promise<Asset> {
    return this.prisma.asset.create({ data: row }).catch(taskStoreUnavailable);
  }

  findAsset(id: string, accountId: string): Promise<Asset | null> {
    return this.prisma.asset
      .findFirst({ where: { id, accountId, deletedAt: null } })
      .catch(taskStoreUnavailable);
  }

  /** The account's assets among `ids`; the others (unknown, foreign, deleted) are left out. */
  findAssets(ids: readonly string[], accountId: string): Promise<Asset[]> {
    return this.prisma.asset
      .findMany({ where: { id: { in: [...ids] }, accountId, deletedAt: null } })
      .catch(taskStoreUnavailable);
  }

  async listAssets(
    accountId: string,
    groupIds: readonly string[] | undefined,
    page: Page,
  ): Promise<Listing<Asset>> {
    const where = { accountId, deletedAt: null, ...(groupIds ? { groupId: { in: [...groupIds] } } : {}) };
    const [rows, total] = await Promise.all([
      this.prisma.asset.findMany({ where, orderBy: NEWEST_FIRST, ...window(page) }),
      this.prisma.asset.count({ where }),
    ]).catch(taskStoreUnavailable);
    return { rows, total };
  }

  async renameAsset(id: string, name: string): Promise<void> {
    await this.prisma.asset.update({ where: { id }, data: { name } }).catch(taskStoreUnavailable);
  }

  async deleteAsset(id: string): Promise<void> {
    await this.prisma.asset
      .update({ where: { id }, data: { deletedAt: new Date() } })
      .catch(taskStoreUnavailable);
  }

  close(): Promise<void> {
    return this.prisma.$disconnect();
  }
}

function window(page: Page): { skip: number; take: number } {
  return { skip: (page.number - 1) * page.size, take: page.size };
}
