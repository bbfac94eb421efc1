import { STATEMENT_ITEM_COLUMNS } from './settle-holds.statement';

/**
 * Writes the log rows of requests that took no hold, from a JSON array of statement items whose
 * capture is the request's cost. The request id is unique, so a request logged before writes nothing
 * again; the statement returns the request ids it logged. Timestamps hold UTC (Prisma's convention),
 * as in settle-holds.statement.ts.
 */
export const recordRequestLogsStatement = {
  name: 'billing_record_request_logs',
  text: `
INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status,
                          end_reason, latency_ms, ttfb_ms, input_tokens, output_tokens, image_count,
                          media_seconds, cost_micros, attempts, created_at)
SELECT i."requestId", i."keyId", i."accountId", i."model", i."channelId", i."route", i."httpStatus",
       i."endReason", i."latencyMs", i."ttfbMs", i."inputTokens", i."outputTokens",
       coalesce(i."imageCount", 0), coalesce(i."mediaSeconds", 0), i."captureMicros", i."attempts",
       now() AT TIME ZONE 'UTC'
  FROM jsonb_to_recordset($1::jsonb) AS i(${STATEMENT_ITEM_COLUMNS})
ON CONFLICT (request_id) DO NOTHING
RETURNING request_id`,
};
