import type { UsageGrouping } from '@gateway/contracts';
import type { TimeWindow } from './usage-window.util';

/**
 * The column of each grouping, from this fixed map only: the client picks a key, never SQL. Times are
 * stored as UTC without a zone, so the day and the hour are UTC. The key is what groups (date_trunc is
 * cheaper per row than to_char); the label is how the grouped value is written out.
 */
const GROUPINGS: Record<UsageGrouping, { key: string; label: string; column: string }> = {
  day: {
    key: `date_trunc('day', created_at)`,
    label: `to_char(date_trunc('day', created_at), 'YYYY-MM-DD')`,
    column: 'day',
  },
  hour: {
    key: `date_trunc('hour', created_at)`,
    label: `to_char(date_trunc('hour', created_at), 'YYYY-MM-DD"T"HH24":00Z"')`,
    column: 'hour',
  },
  account: { key: 'account_id', label: 'account_id', column: 'accountId' },
  key: { key: 'key_id', label: 'key_id', column: 'keyId' },
  model: { key: 'model', label: 'model', column: 'model' },
  channel: { key: 'channel_id', label: 'channel_id', column: 'channelId' },
};

/** Requests without the grouped column (refused before a key or a model was known) share this group. */
export const UNKNOWN_GROUP = '(none)';

/** The figures, named as the JSON rows and the CSV header name them. */
const FIGURES = `count(*)::int8 AS "requests",
       count(*) FILTER (WHERE end_reason <> 'completed')::int8 AS "errors",
       COALESCE(sum(input_tokens), 0)::int8 AS "inputTokens",
       COALESCE(sum(output_tokens), 0)::int8 AS "outputTokens",
       COALESCE(sum(image_count), 0)::int8 AS "images",
       COALESCE(sum(media_seconds), 0)::int8 AS "mediaSeconds",
       COALESCE(sum(cost_micros), 0)::text AS "costMicros"`;

/**
 * Turns a value into SQL text: a `$n` placeholder for a statement, a quoted literal inside COPY (which
 * takes no parameters). Either way no value is ever written into SQL by hand.
 */
export type BindValue = (value: string) => string;

/** The column names of a grouping's rows, in order: the grouped values, then the figures. */
export function usageColumns(groupings: readonly UsageGrouping[]): string[] {
  return [
    ...groupings.map((grouping) => GROUPINGS[grouping].column),
    'requests',
    'errors',
    'inputTokens',
    'outputTokens',
    'images',
    'mediaSeconds',
    'costMicros',
  ];
}

/** Usage summed per group over `[from, to)`, ordered by the groups in the order given. */
export function usageSql(groupings: readonly UsageGrouping[], window: TimeWindow, bind: BindValue): string {
  const unknown = bind(UNKNOWN_GROUP);
  const labels = groupings.map(
    (grouping) => `COALESCE(${GROUPINGS[grouping].label}, ${unknown}) AS "${GROUPINGS[grouping].column}"`,
  );
  const keys = groupings.map((grouping) => GROUPINGS[grouping].key);
  // Ordered by the labels as written, so that `(none)` comes first, as it always did.
  const ordinals = groupings.map((_, index) => index + 1);
  const groupBy = keys.length > 0 ? `GROUP BY ${keys.join(', ')} ORDER BY ${ordinals.join(', ')}` : '';
  return `SELECT ${[...labels, FIGURES].join(',\n       ')}
  FROM request_logs
 WHERE created_at >= (${bind(window.from.toISOString())}::timestamptz AT TIME ZONE 'UTC')
   AND created_at < (${bind(window.to.toISOString())}::timestamptz AT TIME ZONE 'UTC')
 ${groupBy}`;
}

/** The statement and its parameters, for a query that returns rows. */
export function usageStatement(
  groupings: readonly UsageGrouping[],
  window: TimeWindow,
): { text: string; values: string[] } {
  const values: string[] = [];
  const text = usageSql(groupings, window, (value) => {
    values.push(value);
    return `$${values.length}`;
  });
  return { text, values };
}
