/**
 * Writes the log row of a request that took no hold. The request id is unique, so a second write for
 * the same request inserts nothing. Parameters: the columns in order, the cost as a decimal string.
 * Timestamps hold UTC (Prisma's convention), as in settle-holds.statement.ts.
 */
export const recordRequestLogStatement = {
  name: 'billing_record_request_log',
  text: `
INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status,
                          end_reason, latency_ms, ttfb_ms, input_tokens, output_tokens, cost_micros,
                          attempts, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::int8, $14, now() AT TIME ZONE 'UTC')
ON CONFLICT (request_id) DO NOTHING`,
};
