import { AccountListQueryDto } from './account-list-query.dto';
import { encodeAccountCursor } from './account-cursor.util';
import { escapeLikePattern, toAccountsWhere } from './account-list.filter';

function query(fields: Partial<AccountListQueryDto>): AccountListQueryDto {
  return Object.assign(new AccountListQueryDto(), fields);
}

describe('escapeLikePattern', () => {
  it('escapes the LIKE wildcards and the escape character, and nothing else', () => {
    expect(escapeLikePattern('100%_off\\now')).toBe('100\\%\\_off\\\\now');
    expect(escapeLikePattern('Team A')).toBe('Team A');
  });
});

describe('toAccountsWhere', () => {
  it('searches names case-insensitively with wildcards escaped, and starts after the cursor', () => {
    const createdAt = new Date('2026-03-01T00:00:00.000Z');
    const where = toAccountsWhere(
      query({ search: '50%', cursor: encodeAccountCursor({ createdAt, id: 'acct_b' }) }),
    );
    expect(where).toEqual({
      name: { contains: '50\\%', mode: 'insensitive' },
      OR: [{ createdAt: { lt: createdAt } }, { createdAt, id: { lt: 'acct_b' } }],
    });
  });

  it('has no condition when nothing is asked for', () => {
    expect(toAccountsWhere(query({}))).toEqual({});
  });
});
