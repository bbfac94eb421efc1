import type { ModelPrice, PriceByTier } from './price.types';

/** The key a tier table may hold for every tier it does not name. */
export const DEFAULT_TIER = 'default';

/** What an image is priced by: its size tier and its quality tier, as the adapters report them. */
export interface ImageTier {
  size?: string;
  quality?: string;
}

/** A tier's micros, or the tiers the table does price (for the client's error message). */
export type TierPrice = { ok: true; micros: bigint } | { ok: false; asked: string; offered: string[] };

/**
 * The keys an image is looked up by in a per-image table, most specific first: `<size>/<quality>`,
 * `<size>`, `<quality>`, `default`. So a table can price by size alone (`1024x1024`), by quality alone
 * (`hd`), by both (`1024x1024/hd`), or one price for everything (`default`).
 */
export function imageTierKeys({ size, quality }: ImageTier): string[] {
  const keys: string[] = [];
  if (size && quality) keys.push(`${size}/${quality}`);
  if (size) keys.push(size);
  if (quality) keys.push(quality);
  keys.push(DEFAULT_TIER);
  return keys;
}

/**
 * The micros of one image at `tier`. A model whose price has no per-image table has a flat price per
 * call (perCall): its images cost nothing each. A table that names neither the tier nor a default
 * does not price the tier.
 */
export function imageTierPrice(price: Pick<ModelPrice, 'perImage'>, tier: ImageTier): TierPrice {
  if (!price.perImage) return { ok: true, micros: 0n };
  return lookUpTier(price.perImage, imageTierKeys(tier));
}

/** The micros of one second of video at `resolution`, or of the table's default; a flat price without a table. */
export function videoSecondPrice(price: Pick<ModelPrice, 'perVideoSecond'>, resolution?: string): TierPrice {
  if (!price.perVideoSecond) return { ok: true, micros: 0n };
  return lookUpTier(price.perVideoSecond, resolution ? [resolution, DEFAULT_TIER] : [DEFAULT_TIER]);
}

function lookUpTier(table: PriceByTier, keys: readonly string[]): TierPrice {
  for (const key of keys) {
    // Own keys only: an operator's table is data, and `constructor` is no tier.
    if (Object.hasOwn(table, key)) return { ok: true, micros: table[key] };
  }
  return { ok: false, asked: keys[0], offered: Object.keys(table) };
}
