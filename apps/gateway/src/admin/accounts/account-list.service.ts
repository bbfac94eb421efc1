import { Inject, Injectable } from '@nestjs/common';
import type { PrismaClient } from '@gateway/db';
import { PRISMA } from '../../platform/infrastructure/tokens';
import { parseAdminInput } from '../shared/admin-input.util';
import { encodeAccountCursor } from './account-cursor.util';
import { AccountListQueryDto } from './account-list-query.dto';
import { toAccountsWhere } from './account-list.filter';
import type { AccountPageView } from './account-page.view';
import { toAccountView } from './account-view.mapper';

/** Accounts, newest first, paged by (created_at, id) so that new accounts never shift a page being read. */
@Injectable()
export class AccountListService {
  constructor(@Inject(PRISMA) private readonly prisma: PrismaClient) {}

  async page(query: unknown): Promise<AccountPageView> {
    const input = parseAdminInput(AccountListQueryDto, query);
    // One row more than the page tells whether another page follows, without a count.
    const rows = await this.prisma.account.findMany({
      where: toAccountsWhere(input),
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      items: page.map(toAccountView),
      nextCursor: rows.length > input.limit && last ? encodeAccountCursor(last) : null,
    };
  }
}
