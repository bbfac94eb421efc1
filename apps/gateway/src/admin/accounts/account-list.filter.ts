import type { Prisma } from '@gateway/db';
import type { AccountListQueryDto } from './account-list-query.dto';
import { decodeAccountCursor } from './account-cursor.util';

/**
 * `search` as the operand of a LIKE: Prisma's `contains` passes `%` and `_` through as wildcards (a
 * search for "100%" would match "1000"), so they and the escape character itself are escaped with
 * Postgres's default LIKE escape, the backslash.
 */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** The query's search and cursor as a Prisma `where`, for the order (created_at desc, id desc). */
export function toAccountsWhere(query: AccountListQueryDto): Prisma.AccountWhereInput {
  const where: Prisma.AccountWhereInput = {};
  if (query.search !== undefined) {
    where.name = { contains: escapeLikePattern(query.search), mode: 'insensitive' };
  }
  if (query.cursor !== undefined) {
    const after = decodeAccountCursor(query.cursor);
    where.OR = [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }];
  }
  return where;
}
