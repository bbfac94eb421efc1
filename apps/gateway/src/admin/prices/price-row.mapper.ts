import type { PriceDto } from '@gateway/contracts';
import { Prisma, type Price } from '@gateway/db';

type PriceColumns = Omit<Prisma.PriceCreateInput, 'updatedAt'>;

/**
 * A validated price as its row. PUT replaces a model's whole price, so an absent dimension is written
 * as empty (costs nothing) rather than left as it was. Tier tables keep their micros as strings: JSON
 * numbers would round amounts above 2^53.
 */
export function toPriceColumns(price: PriceDto): PriceColumns {
  return {
    model: price.model,
    inputPerMillion: toOptionalMicros(price.inputPerMillion),
    outputPerMillion: toOptionalMicros(price.outputPerMillion),
    perCall: toOptionalMicros(price.perCall),
    perImage: price.perImage ?? Prisma.DbNull,
    perVideoSecond: price.perVideoSecond ?? Prisma.DbNull,
    defaultMaxOutputTokens: price.defaultMaxOutputTokens ?? null,
    maxReasoningTokens: price.maxReasoningTokens ?? null,
  };
}

/** A price row as the admin API shows it: the shape PUT accepts, so a GET can be sent back as is. */
export function fromPriceRow(row: Price): PriceDto {
  const price: PriceDto = { model: row.model };
  if (row.inputPerMillion !== null) price.inputPerMillion = row.inputPerMillion.toString();
  if (row.outputPerMillion !== null) price.outputPerMillion = row.outputPerMillion.toString();
  if (row.perCall !== null) price.perCall = row.perCall.toString();
  const perImage = toMicrosRecord(row.perImage);
  if (perImage) price.perImage = perImage;
  const perVideoSecond = toMicrosRecord(row.perVideoSecond);
  if (perVideoSecond) price.perVideoSecond = perVideoSecond;
  if (row.defaultMaxOutputTokens !== null) price.defaultMaxOutputTokens = row.defaultMaxOutputTokens;
  if (row.maxReasoningTokens !== null) price.maxReasoningTokens = row.maxReasoningTokens;
  return price;
}

function toOptionalMicros(micros: string | undefined): bigint | null {
  return micros === undefined ? null : BigInt(micros);
}

/** Tier tables as strings of micros, whether the row holds strings or (hand-written) numbers. */
function toMicrosRecord(column: unknown): Record<string, string> | undefined {
  if (typeof column !== 'object' || column === null || Array.isArray(column)) return undefined;
  return Object.fromEntries(Object.entries(column).map(([tier, micros]) => [tier, String(micros)]));
}
