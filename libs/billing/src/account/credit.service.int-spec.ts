import { type BillingDatabase, openBillingDatabase } from '../testing/billing-database.fixture';
import { CreditKeyConflictError, CreditOverflowError } from './credit.service';

describe('CreditService (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(10);
  });
  afterAll(() => billing?.close());

  it('applies a credit once however often its idempotency key is replayed, even concurrently', async () => {
    const { id: accountId } = await billing.credits.createAccount({ name: 'payer' });
    const credit = { accountId, amountMicros: 2_500_000n, idempotencyKey: 'payment-1', note: 'top-up' };

    const outcomes = await Promise.all(Array.from({ length: 8 }, () => billing.credits.credit(credit)));
    const replay = await billing.credits.credit(credit);

    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
    expect(replay).toEqual({ applied: false });
    expect(await billing.credits.balanceOf(accountId)).toEqual({
      balance: 2_500_000n,
      held: 0n,
      available: 2_500_000n,
      overdraftLimit: 0n,
    });
    const entries = await billing.prisma.ledgerEntry.findMany({ where: { accountId } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ kind: 'credit', amount: 2_500_000n, note: 'top-up', requestId: null });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('refuses a key that already credited another account, and leaves this one uncredited', async () => {
    const { id: first } = await billing.credits.createAccount({ name: 'first' });
    const { id: second } = await billing.credits.createAccount({ name: 'second' });
    const key = `payment-shared-${first}`;
    await billing.credits.credit({ accountId: first, amountMicros: 10n, idempotencyKey: key });

    await expect(
      billing.credits.credit({ accountId: second, amountMicros: 10n, idempotencyKey: key }),
    ).rejects.toThrow(CreditKeyConflictError);

    expect((await billing.credits.balanceOf(second))?.balance).toBe(0n);
    expect((await billing.credits.balanceOf(first))?.balance).toBe(10n);
    expect(
      await billing.credits.credit({ accountId: first, amountMicros: 10n, idempotencyKey: key }),
    ).toEqual({
      applied: false,
    });
  });

  it('refuses a key reused with another amount or note as a conflict naming the first credit, and changes nothing', async () => {
    const { id: accountId } = await billing.credits.createAccount({ name: 'payer' });
    const first = { accountId, amountMicros: 10n, idempotencyKey: `payment-${accountId}`, note: 'top-up' };
    await billing.credits.credit(first);

    for (const changed of [
      { ...first, amountMicros: 11n },
      { ...first, note: 'another top-up' },
      { ...first, note: undefined },
    ]) {
      await expect(billing.credits.credit(changed)).rejects.toThrow(
        expect.objectContaining({
          name: 'CreditKeyConflictError',
          entry: expect.objectContaining({ accountId, amount: 10n, note: 'top-up' }),
        }),
      );
    }
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(10n);
    expect(await billing.prisma.ledgerEntry.count({ where: { accountId } })).toBe(1);
  });

  it('refuses a credit the balance cannot hold without writing anything', async () => {
    const { id: accountId } = await billing.credits.createAccount({ name: 'rich' });
    await billing.credits.credit({
      accountId,
      amountMicros: 9_223_372_036_854_775_807n,
      idempotencyKey: `max-${accountId}`,
    });

    await expect(
      billing.credits.credit({ accountId, amountMicros: 1n, idempotencyKey: `one-more-${accountId}` }),
    ).rejects.toThrow(CreditOverflowError);

    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(9_223_372_036_854_775_807n);
    expect(await billing.prisma.ledgerEntry.count({ where: { accountId } })).toBe(1);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('adds distinct credits up and keeps credit keys apart from settlement keys', async () => {
    const { id: accountId } = await billing.credits.createAccount({ name: 'payer' });

    await billing.credits.credit({ accountId, amountMicros: 1n, idempotencyKey: 'a' });
    await billing.credits.credit({ accountId, amountMicros: 2n, idempotencyKey: 'b' });
    const unrelated = await billing.credits.credit({
      accountId,
      amountMicros: 4n,
      idempotencyKey: 'hold:req_x',
    });

    expect(unrelated).toEqual({ applied: true });
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(7n);
    const keys = await billing.prisma.ledgerEntry.findMany({
      where: { accountId },
      select: { idempotencyKey: true },
    });
    expect(keys.map((entry) => entry.idempotencyKey).sort()).toEqual([
      'credit:a',
      'credit:b',
      'credit:hold:req_x',
    ]);
  });

  it('refuses a credit that is not positive and a credit to an unknown account', async () => {
    const { id: accountId } = await billing.credits.createAccount({ name: 'payer' });

    await expect(
      billing.credits.credit({ accountId, amountMicros: 0n, idempotencyKey: 'z' }),
    ).rejects.toThrow(RangeError);
    await expect(
      billing.credits.credit({ accountId: 'acct_nobody', amountMicros: 5n, idempotencyKey: 'z' }),
    ).rejects.toThrow(/foreign key/);
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(0n);
  });

  it('creates accounts with a chosen or generated id and changes the overdraft limit', async () => {
    const chosen = await billing.credits.createAccount({
      id: 'acct_team',
      name: 'team',
      overdraftLimitMicros: 5n,
    });
    const generated = await billing.credits.createAccount({ name: 'solo' });

    await billing.credits.setOverdraft('acct_team', 9_000n);

    expect(chosen).toMatchObject({ id: 'acct_team', name: 'team', overdraftLimit: 5n, balance: 0n });
    expect(generated.id).toMatch(/^acct_[0-9a-f]{32}$/);
    expect((await billing.credits.balanceOf('acct_team'))?.overdraftLimit).toBe(9_000n);
    await expect(billing.credits.setOverdraft('acct_team', -1n)).rejects.toThrow(RangeError);
    await expect(billing.credits.balanceOf('acct_nobody')).resolves.toBeUndefined();
  });
});
