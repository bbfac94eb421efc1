import type { Asset, PrismaClient } from '@gateway/db';
import { assetEventTypeOf, recordWebhookEvent } from '@gateway/webhooks/outbox';

/** The statuses worker-assets writes; a row leaves `Processing` once, in a compare-and-swap. */
export type AssetOutcome = { status: 'Active' } | { status: 'Failed'; failureReason: string };

const PROCESSING = 'Processing';

/** What worker-assets reads and writes of the asset rows (the gateway writes the rest). */
export class AssetStatusStore {
  constructor(private readonly prisma: Pick<PrismaClient, 'asset' | 'channel' | '$transaction'>) {}

  findAsset(assetId: string): Promise<Asset | null> {
    return this.prisma.asset.findUnique({ where: { id: assetId } });
  }

  findChannel(channelId: string) {
    return this.prisma.channel.findUnique({ where: { id: channelId } });
  }

  /**
   * Moves the asset out of Processing; false when another look (or a deletion) came first. Its webhook
   * event (asset.active or asset.failed) is written in the same transaction (the outbox, libs/webhooks).
   */
  finish(assetId: string, outcome: AssetOutcome): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.asset.updateMany({
        where: { id: assetId, status: PROCESSING, deletedAt: null },
        data: {
          status: outcome.status,
          failureReason: outcome.status === 'Failed' ? outcome.failureReason : null,
        },
      });
      if (count !== 1) return false;
      const asset = await tx.asset.findUnique({ where: { id: assetId }, select: { accountId: true } });
      if (asset) {
        const type = assetEventTypeOf(outcome.status);
        await recordWebhookEvent(tx, { type, accountId: asset.accountId, subjectId: assetId });
      }
      return true;
    });
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
