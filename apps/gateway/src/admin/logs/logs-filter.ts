import type { LogsQueryDto } from '@gateway/contracts';
import type { Prisma } from '@gateway/db';
import { decodeLogCursor } from './log-cursor.util';

/** The query's filters as a Prisma `where`; the cursor adds "strictly older than the last row seen". */
export function toLogsWhere(query: LogsQueryDto): Prisma.RequestLogWhereInput {
  const createdAt: Prisma.DateTimeFilter = {};
  if (query.from !== undefined) createdAt.gte = new Date(query.from);
  if (query.to !== undefined) createdAt.lt = new Date(query.to);
  return {
    keyId: query.keyId,
    accountId: query.accountId,
    requestId: query.requestId,
    model: query.model,
    channelId: query.channelId,
    httpStatus: query.status,
    endReason: query.endReason,
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
    ...(query.cursor !== undefined ? { id: { lt: decodeLogCursor(query.cursor) } } : {}),
  };
}
