import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { encodeAccountCursor } from '../accounts/account-cursor.util';
import { parseAdminInput } from '../shared/admin-input.util';
import { TaskListQueryDto } from './task-list-query.dto';
import { toTasksWhere } from './task-list.filter';
import { TaskMoneyReader } from './task-money.reader';
import { toAdminTaskView } from './task-view.mapper';
import type { TaskPageView } from './task.view';

/** Tasks of every kind, newest first, paged by (created_at, id) as accounts are. */
@Injectable()
export class TaskListService {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    private readonly money: TaskMoneyReader,
  ) {}

  async page(query: unknown): Promise<TaskPageView> {
    const input = parseAdminInput(TaskListQueryDto, query);
    const now = new Date();
    // One row more than the page tells whether another page follows, without a count. The request
    // column is left out: it may hold uploads of megabytes each.
    const rows = await this.prisma.task.findMany({
      where: toTasksWhere(input, now),
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
      omit: { request: true },
    });
    const page = rows.slice(0, input.limit).map((row) => ({ ...row, request: {} }));
    const money = await this.money.moneyOf(page);
    const last = page.at(-1);
    return {
      items: page.map((task) => toAdminTaskView(task, this.moneyOrThrow(money, task.id), now)),
      nextCursor: rows.length > input.limit && last ? encodeAccountCursor(last) : null,
    };
  }

  private moneyOrThrow<T>(money: Map<string, T>, id: string): T {
    const found = money.get(id);
    if (found === undefined) throw new Error(`no money read for task ${id}`);
    return found;
  }
}
