import type { Account } from '@gateway/db';
import { toAccountView } from './account-view.mapper';

describe('toAccountView', () => {
  it('writes money as exact decimal strings of micros, beyond the safe integer range', () => {
    const account: Account = {
      id: 'acct_1',
      name: 'team',
      balance: 9007199254740993n,
      held: 2n,
      overdraftLimit: 5000000n,
      limits: null,
      budgetMicros: 7n,
      budgetPeriod: 'total',
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      updatedAt: new Date('2026-01-01T00:00:01.000Z'),
    };
    expect(toAccountView(account)).toEqual({
      id: 'acct_1',
      name: 'team',
      balanceMicros: '9007199254740993',
      heldMicros: '2',
      availableMicros: '9007199254740991',
      overdraftLimitMicros: '5000000',
      limits: null,
      budget: { amountMicros: '7', period: 'total' },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:01.000Z',
    });
  });

  it('shows a negative available amount when holds exceed the balance (overdraft)', () => {
    const account = { balance: 1n, held: 3n, overdraftLimit: 10n } as Account;
    expect(
      toAccountView({ ...account, createdAt: new Date(0), updatedAt: new Date(0) }).availableMicros,
    ).toBe('-2');
  });
});
