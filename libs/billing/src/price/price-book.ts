import type { PrismaClient } from '@gateway/db';
import { fromPriceRow } from './price-row.util';
import type { ModelPrice } from './price.types';

/**
 * Every price in memory, so that pricing a request costs no query. The owner decides when to reload
 * (at boot, after an admin change, on its own schedule): there are no timers in here.
 */
export class PriceBook {
  private pricesByModel: ReadonlyMap<string, ModelPrice> = new Map();

  constructor(private readonly prisma: Pick<PrismaClient, 'price'>) {}

  /**
   * Reloads all prices and returns how many were loaded. A row that cannot be read fails the whole
   * refresh and keeps the previous prices, so a typo never silently makes a model free.
   */
  async refresh(): Promise<number> {
    const rows = await this.prisma.price.findMany();
    this.pricesByModel = new Map(rows.map((row) => [row.model, fromPriceRow(row)]));
    return this.pricesByModel.size;
  }

  /** The price of a public model name; undefined means the operator priced nothing, so callers refuse. */
  priceFor(model: string): ModelPrice | undefined {
    return this.pricesByModel.get(model);
  }
}
