import type { UsageGrouping, UsageQueryDto } from '@gateway/contracts';
import { Prisma } from '@gateway/db';

/**
 * The group expression of each grouping, from this fixed map only: the client picks a key, never SQL.
 * Times are stored as UTC without a zone, so the day is the UTC day.
 */
const GROUP_EXPRESSIONS: Record<UsageGrouping, Prisma.Sql> = {
  key: Prisma.sql`key_id`,
  model: Prisma.sql`model`,
  channel: Prisma.sql`channel_id`,
  day: Prisma.sql`to_char(created_at, 'YYYY-MM-DD')`,
};

/** Requests without the grouped column (refused before a key or a model was known) share this group. */
export const UNKNOWN_GROUP = '(none)';

export interface UsageSqlRow {
  group: string;
  requests: bigint;
  input_tokens: bigint;
  output_tokens: bigint;
  /** sum() of a BIGINT is NUMERIC; read as text so no digit is lost. */
  cost_micros: string;
}

/** Usage summed per group over `[from, to)`, ordered by group. Every value is a bound parameter. */
export function usageStatement(query: UsageQueryDto): Prisma.Sql {
  const group = GROUP_EXPRESSIONS[query.groupBy];
  const conditions = [Prisma.sql`TRUE`];
  if (query.from !== undefined) conditions.push(Prisma.sql`created_at >= ${utcTimestamp(query.from)}`);
  if (query.to !== undefined) conditions.push(Prisma.sql`created_at < ${utcTimestamp(query.to)}`);
  return Prisma.sql`
    SELECT COALESCE(${group}, ${UNKNOWN_GROUP}) AS "group",
           count(*)::int8 AS requests,
           COALESCE(sum(input_tokens), 0)::int8 AS input_tokens,
           COALESCE(sum(output_tokens), 0)::int8 AS output_tokens,
           COALESCE(sum(cost_micros), 0)::text AS cost_micros
      FROM request_logs
     WHERE ${Prisma.join(conditions, ' AND ')}
     GROUP BY 1
     ORDER BY 1`;
}

/** An ISO time as the zone-less UTC timestamp the columns hold. */
function utcTimestamp(iso: string): Prisma.Sql {
  return Prisma.sql`(${new Date(iso).toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
}
