/**
 * Values made storable before they reach Postgres, so that one value the database would refuse never
 * fails the statement that carries a whole batch of rows with it.
 */

/** The largest int4 (`integer` column): token counts, latencies, statuses. */
export const INT4_MAX = 2_147_483_647;
/** The largest int8 (`bigint` column): micros. */
export const INT8_MAX = 9_223_372_036_854_775_807n;

/**
 * What Postgres cannot store in text or jsonb: NUL, and UTF-16 surrogates that are not part of a pair
 * (JSON.stringify writes them as `\udXXX` escapes, which jsonb refuses). Searched without the `u` flag,
 * so the pattern sees code units.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters to find.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The text with each unstorable character replaced by U+FFFD, the replacement character. */
export function toStorableText(value: string): string;
export function toStorableText(value: string | undefined): string | undefined;
export function toStorableText(value: string | undefined): string | undefined {
  return value === undefined ? undefined : value.replace(UNSTORABLE_TEXT, '\ufffd');
}

/**
 * A count for an int4 column: rounded up to a whole number and held within 0 … INT4_MAX, so a usage
 * report of three billion tokens is stored as the column's maximum instead of failing the write (the
 * cost was computed from the count as reported). Not-a-number counts as 0.
 */
export function toStorableCount(value: number): number;
export function toStorableCount(value: number | undefined): number | undefined;
export function toStorableCount(value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!(value > 0)) return 0;
  return value >= INT4_MAX ? INT4_MAX : Math.ceil(value);
}

/** Micros for an int8 column: no account can pay more than INT8_MAX, so a larger cost asks for that. */
export function toStorableMicros(value: bigint): bigint {
  return value > INT8_MAX ? INT8_MAX : value;
}
