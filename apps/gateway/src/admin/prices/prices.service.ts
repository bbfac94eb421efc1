import { Inject, Injectable } from '@nestjs/common';
import { PriceBook } from '@gateway/billing';
import { PutPricesDto } from '@gateway/contracts';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { fromPriceRow, toPriceColumns } from './price-row.mapper';
import type { PricesView } from './prices.view';

/** Prices are data: rows an operator upserts, reloaded into the in-memory price book after each change. */
@Injectable()
export class PricesService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly priceBook: PriceBook,
  ) {}

  async list(): Promise<PricesView> {
    const rows = await this.prisma.price.findMany({ orderBy: { model: 'asc' } });
    return { prices: rows.map(fromPriceRow) };
  }

  /** Upserts the given models' prices in one transaction; other models keep theirs. Answers the written prices. */
  async put(body: unknown): Promise<PricesView> {
    const { prices } = parseAdminInput(PutPricesDto, body);
    const rows = await this.prisma.$transaction(
      prices.map((price) => {
        const columns = toPriceColumns(price);
        return this.prisma.price.upsert({ where: { model: price.model }, create: columns, update: columns });
      }),
    );
    await this.priceBook.refresh();
    return { prices: rows.map(fromPriceRow) };
  }
}
