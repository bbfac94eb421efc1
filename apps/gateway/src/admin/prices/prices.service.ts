import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { PutPricesDto } from '@gateway/contracts';
import type { PrismaClient } from '@gateway/db';
import { PriceSync } from '../../platform/infrastructure/price-sync.service';
import { LOGGER, PRISMA } from '../../platform/infrastructure/tokens';
import { fromPriceRow, toPriceColumns } from './price-row.mapper';
import type { PricesView } from './prices.view';

/** Prices are data: rows an operator upserts, reloaded into every instance's price book after each change. */
@Injectable()
export class PricesService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly priceSync: PriceSync,
  ) {}

  async list(): Promise<PricesView> {
    const rows = await this.prisma.price.findMany({ orderBy: { model: 'asc' } });
    return { prices: rows.map(fromPriceRow) };
  }

  /** Upserts the given models' prices in one transaction; other models keep theirs. Answers the written prices. */
  async put(input: PutPricesDto): Promise<PricesView> {
    const { prices } = input;
    const rows = await this.prisma.$transaction(
      prices.map((price) => {
        const columns = toPriceColumns(price);
        return this.prisma.price.upsert({ where: { model: price.model }, create: columns, update: columns });
      }),
    );
    await this.announceChange();
    return { prices: rows.map(fromPriceRow) };
  }

  /**
   * Every instance reloads its price book. The prices are committed either way; if the announcement
   * fails, the instances pick them up at their next periodic reload, so the request does not fail for it.
   */
  private async announceChange(): Promise<void> {
    try {
      await this.priceSync.announceChange();
    } catch (error) {
      this.logger.warn(
        { err: error },
        'prices saved but not announced; instances catch up on their next reload',
      );
    }
  }
}
