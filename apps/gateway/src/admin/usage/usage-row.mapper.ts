import type { UsageGrouping, UsageRow } from '@gateway/contracts';
import { usageColumns } from './usage-query.sql';

/** A row as pg reads it: int8 counts arrive as strings, the cost as the exact decimal text. */
export type UsageSqlRow = Record<string, string>;

const COUNTS = ['requests', 'errors', 'inputTokens', 'outputTokens', 'images', 'mediaSeconds'] as const;

/**
 * Counts become numbers (sums of 32-bit columns stay far below 2^53 in any bounded window); the cost
 * stays the exact decimal string of micros; `group` joins the grouped values, as it always named them.
 */
export function toUsageRow(row: UsageSqlRow, groupings: readonly UsageGrouping[]): UsageRow {
  const groupColumns = usageColumns(groupings).slice(0, groupings.length);
  const groupValues = Object.fromEntries(groupColumns.map((column) => [column, row[column]]));
  const counts = Object.fromEntries(COUNTS.map((column) => [column, Number(row[column])]));
  return {
    group: groupColumns.map((column) => row[column]).join(','),
    ...groupValues,
    ...(counts as Record<(typeof COUNTS)[number], number>),
    costMicros: row['costMicros'] ?? '0',
  };
}
