/** Minutes of request log that a channel's recent error rate covers. */
export const RECENT_ERRORS_WINDOW_MINUTES = 15;

/** End reasons that mean the upstream failed the call: the channel's fault, not the client's. */
export const UPSTREAM_FAILURE_END_REASONS = ['upstream_error', 'task_failed'] as const;

export interface ChannelRecentErrorsSqlRow {
  channel_id: string;
  requests: number;
  errors: number;
}

/**
 * One grouped statement for every listed channel (served by the channel_id, created_at index); a
 * channel without rows in the window has no row. `created_at` holds UTC without a zone, as the
 * overview's statement reads it.
 */
export function channelRecentErrorsStatement(
  channelIds: readonly string[],
  since: Date,
): { text: string; values: unknown[] } {
  const text = `
SELECT channel_id, count(*)::int AS requests, count(*) FILTER (WHERE end_reason = ANY($3::text[]))::int AS errors
  FROM request_logs
 WHERE channel_id = ANY($1::text[]) AND created_at >= ($2::timestamptz AT TIME ZONE 'UTC')
 GROUP BY channel_id`;
  return { text, values: [channelIds, since.toISOString(), UPSTREAM_FAILURE_END_REASONS] };
}
