import {
  nextRequestId,
  openBillingDatabase,
  type BillingDatabase,
} from '../testing/billing-database.fixture';

describe('DebitService (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(10);
  });
  afterAll(() => billing?.close());

  it('debits once however often its idempotency key is replayed, even concurrently, and keeps the books balanced', async () => {
    const accountId = await billing.fundedAccount(1_000n);
    const debit = { accountId, amountMicros: 300n, idempotencyKey: 'fix-1', note: 'refunded by hand' };

    const outcomes = await Promise.all(Array.from({ length: 8 }, () => billing.debits.debit(debit)));
    const replay = await billing.debits.debit(debit);

    expect(outcomes.filter((outcome) => outcome.status === 'applied')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'replayed')).toHaveLength(7);
    expect(replay).toMatchObject({ status: 'replayed', entry: { amount: 300n, note: 'refunded by hand' } });
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(700n);
    const entries = await billing.prisma.ledgerEntry.findMany({ where: { accountId, kind: 'debit' } });
    expect(entries).toEqual([
      expect.objectContaining({ amount: 300n, idempotencyKey: 'debit:fix-1', requestId: null }),
    ]);
    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      credits: 1_000n,
      debits: 300n,
      balance: 700n,
      balanced: true,
    });
  });

  it('answers a key reused with another amount, note or account as a conflict and changes nothing', async () => {
    const accountId = await billing.fundedAccount(1_000n);
    const other = await billing.fundedAccount(1_000n);
    const first = { accountId, amountMicros: 10n, idempotencyKey: `k-${accountId}` };
    await billing.debits.debit(first);

    for (const changed of [
      { ...first, amountMicros: 11n },
      { ...first, note: 'another reason' },
      { ...first, accountId: other },
    ]) {
      expect(await billing.debits.debit(changed)).toMatchObject({
        status: 'key_conflict',
        entry: { accountId, amount: 10n },
      });
    }
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(990n);
    expect((await billing.credits.balanceOf(other))?.balance).toBe(1_000n);
  });

  it('goes below zero within the overdraft limit, counting open holds, and no further', async () => {
    const accountId = await billing.fundedAccount(100n, 50n);
    await billing.holds.take({
      requestId: nextRequestId(),
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount: 40n,
      ttlMs: 60_000,
    });

    // available 60, overdraft 50: at most 110 may go.
    expect(
      await billing.debits.debit({ accountId, amountMicros: 111n, idempotencyKey: `over-${accountId}` }),
    ).toEqual({ status: 'beyond_overdraft', availableMicros: 60n, overdraftLimitMicros: 50n });
    expect(await billing.prisma.ledgerEntry.count({ where: { accountId, kind: 'debit' } })).toBe(0);
    expect(
      await billing.debits.debit({ accountId, amountMicros: 110n, idempotencyKey: `edge-${accountId}` }),
    ).toMatchObject({ status: 'applied' });
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: -10n, available: -50n });
    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      withinOverdraft: true,
      balanced: true,
    });
  });

  it('refuses the largest amounts without overflowing, and reports an unknown account', async () => {
    const accountId = await billing.fundedAccount(1n, 9_223_372_036_854_775_807n);
    expect(
      await billing.debits.debit({
        accountId,
        amountMicros: 9_223_372_036_854_775_807n,
        idempotencyKey: `max-${accountId}`,
      }),
    ).toMatchObject({ status: 'applied' });
    expect((await billing.credits.balanceOf(accountId))?.balance).toBe(-9_223_372_036_854_775_806n);
    expect(
      await billing.debits.debit({
        accountId,
        amountMicros: 9_223_372_036_854_775_807n,
        idempotencyKey: `max2-${accountId}`,
      }),
    ).toMatchObject({ status: 'beyond_overdraft' });
    expect(
      await billing.debits.debit({ accountId: 'acct_nobody', amountMicros: 1n, idempotencyKey: 'nobody' }),
    ).toEqual({ status: 'no_account' });
    await expect(
      billing.debits.debit({ accountId, amountMicros: 0n, idempotencyKey: 'zero' }),
    ).rejects.toThrow(RangeError);
  });

  it('audits every account in one pass, debits included', async () => {
    const accountId = await billing.fundedAccount(500n);
    await billing.debits.debit({ accountId, amountMicros: 200n, idempotencyKey: `all-${accountId}` });
    const results = await billing.audit.auditAll();
    expect(results.map((result) => result.accountId)).toEqual(
      [...results.map((result) => result.accountId)].sort(),
    );
    expect(results.find((result) => result.accountId === accountId)).toMatchObject({
      balance: 300n,
      debits: 200n,
      balanced: true,
    });
    expect(results.every((result) => result.balanced)).toBe(true);
  });
});
