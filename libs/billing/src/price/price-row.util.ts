import type { ModelPrice, PriceByTier } from './price.types';

/** A `prices` row. pg reads int8 as a decimal string, Prisma as a bigint: both are exact. */
export interface PriceRow {
  model: string;
  inputPerMillion: bigint | string | null;
  outputPerMillion: bigint | string | null;
  perCall: bigint | string | null;
  perImage: unknown;
  perVideoSecond: unknown;
  defaultMaxOutputTokens: number | null;
  maxReasoningTokens: number | null;
}

/**
 * Converts a `prices` row into the in-memory price. Tier tables are operator-written JSON, so each value
 * is checked: a price that cannot be read exactly is refused rather than guessed.
 */
export function fromPriceRow(row: PriceRow): ModelPrice {
  return {
    model: row.model,
    inputPerMillion: toWholeMicros(row.inputPerMillion ?? 0n, `${row.model}.inputPerMillion`),
    outputPerMillion: toWholeMicros(row.outputPerMillion ?? 0n, `${row.model}.outputPerMillion`),
    perCall: toWholeMicros(row.perCall ?? 0n, `${row.model}.perCall`),
    perImage: toPriceByTier(row.perImage, `${row.model}.perImage`),
    perVideoSecond: toPriceByTier(row.perVideoSecond, `${row.model}.perVideoSecond`),
    defaultMaxOutputTokens: row.defaultMaxOutputTokens ?? undefined,
    maxReasoningTokens: row.maxReasoningTokens ?? undefined,
  };
}

function toPriceByTier(value: unknown, fieldName: string): PriceByTier | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`price ${fieldName} must be an object of tier → micros`);
  }
  const tiers: Record<string, bigint> = {};
  for (const [tier, micros] of Object.entries(value)) {
    tiers[tier] = toWholeMicros(micros, `${fieldName}.${tier}`);
  }
  return Object.freeze(tiers);
}

/** Accepts a safe non-negative integer or a string of digits (JSON numbers lose precision above 2^53). */
function toWholeMicros(value: unknown, fieldName: string): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new Error(`price ${fieldName} must be a whole, non-negative number of micros`);
}
