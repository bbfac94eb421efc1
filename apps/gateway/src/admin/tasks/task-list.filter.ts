import type { Prisma } from '@gateway/db';
import { TASK_STATUSES, TERMINAL_TASK_STATUSES } from '@gateway/tasks';
import { GatewayError } from '@gateway/errors';
import { decodeAccountCursor } from '../accounts/account-cursor.util';
import type { TaskListQueryDto } from './task-list-query.dto';

const UNFINISHED_STATUSES: string[] = TASK_STATUSES.filter((status) => !TERMINAL_TASK_STATUSES.has(status));

/**
 * The query's filters as a Prisma `where`, for the order (created_at desc, id desc). The cursor is the
 * accounts' (created_at, id) position, minted and checked by the same helper.
 *
 * `stuck=true` is an unfinished task past its own deadline_at: each route writes it at creation from
 * its family's setting (VIDEO_TASK_DEADLINE_MS and VIDEO_TASK_DEADLINES for videos, the music and /bt
 * deadlines), and a worker that steps a task past it fails it and releases its hold, so one still open
 * then is one no worker is moving.
 */
export function toTasksWhere(query: TaskListQueryDto, now: Date): Prisma.TaskWhereInput {
  const and: Prisma.TaskWhereInput[] = [];
  const createdAt: Prisma.DateTimeFilter = {};
  if (query.createdAfter !== undefined) createdAt.gte = storableTime(query.createdAfter, 'createdAfter');
  if (query.createdBefore !== undefined) createdAt.lt = storableTime(query.createdBefore, 'createdBefore');
  if (query.stuck === 'true') and.push({ status: { in: UNFINISHED_STATUSES }, deadlineAt: { lt: now } });
  if (query.stuck === 'false') {
    and.push({ OR: [{ status: { notIn: UNFINISHED_STATUSES } }, { deadlineAt: { gte: now } }] });
  }
  if (query.cursor !== undefined) {
    const after = decodeAccountCursor(query.cursor);
    and.push({
      OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
    });
  }
  return {
    status: query.status,
    kind: query.kind,
    model: query.model,
    accountId: query.accountId,
    channelId: query.channelId,
    ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}),
    ...(and.length > 0 ? { AND: and } : {}),
  };
}

/** Postgres stores years 4713 BC to 294276 AD; a date outside 0000–9999 is refused rather than a 500. */
function storableTime(text: string, param: string): Date {
  const time = new Date(text);
  const year = time.getUTCFullYear();
  if (Number.isNaN(time.getTime()) || year < 0 || year > 9999) {
    throw GatewayError.invalidRequest(`${param} must be a time between the years 0000 and 9999.`, param);
  }
  return time;
}
