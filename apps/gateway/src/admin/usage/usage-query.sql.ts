import type { UsageGrouping } from '@gateway/contracts';
import type { TimeWindow } from './usage-window.util';

/**
 * The column of each grouping, from this fixed map only: the client picks a key, never SQL. Times are
 * stored as UTC without a zone, so the day and the hour are UTC. The key is what groups (date_trunc is
 * cheaper per row than to_char); the label is how the grouped value is written out. `at` is a raw
 * row's time or an hourly rollup row's hour: both fall in the same day and hour.
 */
const GROUPINGS: Record<UsageGrouping, { key: string; label: string; column: string }> = {
  day: {
    key: `date_trunc('day', at)`,
    label: `to_char(date_trunc('day', at), 'YYYY-MM-DD')`,
    column: 'day',
  },
  hour: {
    key: `date_trunc('hour', at)`,
    label: `to_char(date_trunc('hour', at), 'YYYY-MM-DD"T"HH24":00Z"')`,
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
const FIGURES = `COALESCE(sum(requests), 0)::int8 AS "requests",
       COALESCE(sum(errors), 0)::int8 AS "errors",
       COALESCE(sum(input_tokens), 0)::int8 AS "inputTokens",
       COALESCE(sum(output_tokens), 0)::int8 AS "outputTokens",
       COALESCE(sum(images), 0)::int8 AS "images",
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

/**
 * Usage summed per group over `[from, to)`, ordered by the groups in the order given: the hourly
 * rollup's rows for the whole hours of `cover`, and the raw rows for the rest of the window (its
 * partial first and last hours, and whatever the rollup has not reached). The two never overlap, so
 * every request is counted once (docs/admin-figures.md).
 */
export function usageSql(
  groupings: readonly UsageGrouping[],
  window: TimeWindow,
  cover: TimeWindow,
  bind: BindValue,
): string {
  const unknown = bind(UNKNOWN_GROUP);
  const labels = groupings.map(
    (grouping) => `COALESCE(${GROUPINGS[grouping].label}, ${unknown}) AS "${GROUPINGS[grouping].column}"`,
  );
  const keys = groupings.map((grouping) => GROUPINGS[grouping].key);
  // Ordered by the labels as written, so that `(none)` comes first, as it always did.
  const ordinals = groupings.map((_, index) => index + 1);
  const groupBy = keys.length > 0 ? `GROUP BY ${keys.join(', ')} ORDER BY ${ordinals.join(', ')}` : '';
  const time = (date: Date) => `(${bind(date.toISOString())}::timestamptz AT TIME ZONE 'UTC')`;
  const [from, to, coverFrom, coverTo] = [window.from, window.to, cover.from, cover.to].map(time);
  return `SELECT ${[...labels, FIGURES].join(',\n       ')}
  FROM (
    SELECT created_at AS at, account_id, key_id, model, channel_id, 1::int8 AS requests,
           (end_reason <> 'completed')::int::int8 AS errors, input_tokens::int8 AS input_tokens,
           output_tokens::int8 AS output_tokens, image_count::int8 AS images,
           media_seconds::int8 AS media_seconds, cost_micros
      FROM request_logs
     WHERE (created_at >= ${from} AND created_at < ${coverFrom})
        OR (created_at >= ${coverTo} AND created_at < ${to})
    UNION ALL
    SELECT bucket, account_id, key_id, model, channel_id, requests, errors, input_tokens, output_tokens,
           images, media_seconds, cost_micros
      FROM request_log_hours
     WHERE bucket >= ${coverFrom} AND bucket < ${coverTo}
  ) AS usage
 ${groupBy}`;
}

/** The statement and its parameters, for a query that returns rows. */
export function usageStatement(
  groupings: readonly UsageGrouping[],
  window: TimeWindow,
  cover: TimeWindow,
): { text: string; values: string[] } {
  const values: string[] = [];
  const text = usageSql(groupings, window, cover, (value) => {
    values.push(value);
    return `$${values.length}`;
  });
  return { text, values };
}
