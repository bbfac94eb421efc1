import type { LogView } from '@gateway/contracts';
import type { RequestLog } from '@gateway/db';

export function toLogView(row: RequestLog): LogView {
  return {
    requestId: row.requestId,
    keyId: row.keyId,
    accountId: row.accountId,
    model: row.model,
    channelId: row.channelId,
    route: row.route,
    httpStatus: row.httpStatus,
    endReason: row.endReason,
    latencyMs: row.latencyMs,
    ttfbMs: row.ttfbMs,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    imageCount: row.imageCount,
    mediaSeconds: row.mediaSeconds,
    costMicros: row.costMicros.toString(),
    overageMicros: row.overageMicros.toString(),
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
  };
}
