import { Inject, Injectable } from '@nestjs/common';
import { LogsQueryDto, type LogPageView } from '@gateway/contracts';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { encodeLogCursor } from './log-cursor.util';
import { toLogView } from './log-view.mapper';
import { toLogsWhere } from './logs-filter';

/** Request logs, newest first, paged by id so that new rows never shift a page being read. */
@Injectable()
export class LogsService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async page(query: unknown): Promise<LogPageView> {
    const input = parseAdminInput(LogsQueryDto, query);
    // One row more than the page tells whether another page follows, without a count.
    const rows = await this.prisma.requestLog.findMany({
      where: toLogsWhere(input),
      orderBy: { id: 'desc' },
      take: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      items: page.map(toLogView),
      nextCursor: rows.length > input.limit && last ? encodeLogCursor(last.id) : null,
    };
  }
}
