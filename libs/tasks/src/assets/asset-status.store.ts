import type { Asset, PrismaClient } from '@gateway/db';

/** The statuses worker-assets writes; a row leaves `Processing` once, in a compare-and-swap. */
export type AssetOutcome = { status: 'Active' } | { status: 'Failed'; failureReason: string };

const PROCESSING = 'Processing';

/** What worker-assets reads and writes of the asset rows (the gateway writes the rest). */
export class AssetStatusStore {
  constructor(private readonly prisma: Pick<PrismaClient, 'asset' | 'channel'>) {}

  findAsset(assetId: string): Promise<Asset | null> {
    return this.prisma.asset.findUnique({ where: { id: assetId } });
  }

  findChannel(channelId: string) {
    return this.prisma.channel.findUnique({ where: { id: channelId } });
  }

  /** Moves the asset out of Processing; false when another look (or a deletion) came first. */
  async finish(assetId: string, outcome: AssetOutcome): Promise<boolean> {
    const { count } = await this.prisma.asset.updateMany({
      where: { id: assetId, status: PROCESSING, deletedAt: null },
      data: {
        status: outcome.status,
        failureReason: outcome.status === 'Failed' ? outcome.failureReason : null,
      },
    });
    return count === 1;
  }

  /** Ids of assets still processing, not written since `before`: those whose job may have been lost. */
  async findIdleProcessingIds(before: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.asset.findMany({
      where: { status: PROCESSING, deletedAt: null, updatedAt: { lt: before } },
      select: { id: true },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
    return rows.map((row) => row.id);
  }
}
