import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { accountNotFound } from '../accounts/account-not-found.error';
import { parseAdminInput } from '../shared/admin-input.util';
import { decodeLogCursor, encodeLogCursor } from '../logs/log-cursor.util';
import { toLedgerEntryView } from './ledger-entry.mapper';
import type { LedgerPageView } from './ledger-entry.view';
import { LedgerQueryDto } from './ledger-query.dto';

/**
 * An account's ledger, newest first, paged by row id like the request logs (the same opaque cursor of
 * the last id seen), so rows written meanwhile never shift a page being read.
 */
@Injectable()
export class LedgerService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async page(accountId: string, query: unknown): Promise<LedgerPageView> {
    const input = parseAdminInput(LedgerQueryDto, query);
    const below = input.cursor !== undefined ? decodeLogCursor(input.cursor) : undefined;
    const account = await this.prisma.account.findUnique({ where: { id: accountId }, select: { id: true } });
    if (!account) throw accountNotFound(accountId);
    // One row more than the page tells whether another page follows, without a count.
    const rows = await this.prisma.ledgerEntry.findMany({
      where: { accountId, ...(below !== undefined ? { id: { lt: below } } : {}) },
      orderBy: { id: 'desc' },
      take: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const taskIds = await this.taskIdsByHold(page.map((row) => row.requestId));
    const last = page.at(-1);
    return {
      items: page.map((row) => toLedgerEntryView(row, taskIds.get(row.requestId ?? '') ?? null)),
      nextCursor: rows.length > input.limit && last ? encodeLogCursor(last.id) : null,
    };
  }

  /**
   * A task's capture carries the request id of the task's hold, not the task id; one indexed look-up
   * (tasks.hold_request_id) per page names the task behind each such row.
   */
  private async taskIdsByHold(requestIds: Array<string | null>): Promise<Map<string, string>> {
    const holds = requestIds.filter((id): id is string => id !== null);
    if (holds.length === 0) return new Map();
    const tasks = await this.prisma.task.findMany({
      where: { holdRequestId: { in: holds } },
      select: { id: true, holdRequestId: true },
    });
    return new Map(tasks.map((task) => [task.holdRequestId ?? '', task.id]));
  }
}
