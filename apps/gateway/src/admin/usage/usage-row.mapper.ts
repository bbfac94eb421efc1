import type { UsageRow } from '@gateway/contracts';
import type { UsageSqlRow } from './usage-query.sql';

/** Counts become numbers; the cost stays the exact decimal string of micros. */
export function toUsageRow(row: UsageSqlRow): UsageRow {
  return {
    group: row.group,
    requests: Number(row.requests),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    costMicros: row.cost_micros,
  };
}
