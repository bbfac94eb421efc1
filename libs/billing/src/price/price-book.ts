import type { Pool } from 'pg';
import { fromPriceRow, type PriceRow } from './price-row.util';
import type { ModelPrice } from './price.types';

const allPricesStatement = {
  name: 'billing_all_prices',
  text: `
SELECT model, input_per_million AS "inputPerMillion", output_per_million AS "outputPerMillion",
       per_call AS "perCall", per_image AS "perImage", per_video_second AS "perVideoSecond",
       default_max_output_tokens AS "defaultMaxOutputTokens", max_reasoning_tokens AS "maxReasoningTokens"
  FROM prices`,
};

/**
 * Every price in memory, so that pricing a request costs no query. The owner decides when to reload
 * (at boot, after an admin change, on its own schedule): there are no timers in here.
 */
export class PriceBook {
  private pricesByModel: ReadonlyMap<string, ModelPrice> = new Map();

  constructor(private readonly pool: Pool) {}

  /**
   * Reloads all prices and returns how many were loaded. A row that cannot be read fails the whole
   * refresh and keeps the previous prices, so a typo never silently makes a model free.
   */
  async refresh(): Promise<number> {
    const { rows } = await this.pool.query<PriceRow>(allPricesStatement);
    this.pricesByModel = new Map(rows.map((row) => [row.model, fromPriceRow(row)]));
    return this.pricesByModel.size;
  }

  /** The price of a public model name; undefined means the operator priced nothing, so callers refuse. */
  priceFor(model: string): ModelPrice | undefined {
    return this.pricesByModel.get(model);
  }
}
