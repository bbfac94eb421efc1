import { MAX_HOLD_MICROS } from './hold.types';
import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';

const HOLD = 1_000n;

describe('HoldService (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(20);
  });
  afterAll(() => billing?.close());

  function take(accountId: string, amount: bigint, requestId = nextRequestId()) {
    return billing.holds.take({
      requestId,
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount,
      ttlMs: 60_000,
    });
  }

  it('lets exactly as many concurrent holds through as the balance covers', async () => {
    const accountId = await billing.fundedAccount(10n * HOLD);

    const results = await Promise.all(Array.from({ length: 200 }, () => take(accountId, HOLD)));

    expect(results.filter((result) => result.ok)).toHaveLength(10);
    const refusals = results.filter((result) => !result.ok);
    expect(refusals).toHaveLength(190);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ ok: false, reason: 'insufficient_balance' });
    }
    const balance = await billing.credits.balanceOf(accountId);
    expect(balance).toEqual({ balance: 10n * HOLD, held: 10n * HOLD, available: 0n, overdraftLimit: 0n });
    const openHolds = await billing.prisma.hold.count({ where: { accountId, status: 'open' } });
    expect(openHolds).toBe(10);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('writes the hold row with a deadline and no ledger row: a hold moves no money', async () => {
    const accountId = await billing.fundedAccount(5_000n);
    const requestId = nextRequestId();

    await expect(take(accountId, 1_234n, requestId)).resolves.toEqual({ ok: true });

    const hold = await billing.prisma.hold.findUniqueOrThrow({ where: { requestId } });
    expect(hold).toMatchObject({
      accountId,
      keyId: 'key_1',
      amount: 1_234n,
      status: 'open',
      settledAt: null,
    });
    const ttl = hold.expiresAt.getTime() - hold.createdAt.getTime();
    expect(ttl).toBe(60_000);
    expect(await billing.prisma.ledgerEntry.count({ where: { requestId } })).toBe(0);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('reports what the account could still hold when it refuses', async () => {
    const accountId = await billing.fundedAccount(2_500n, 500n);
    await take(accountId, 2_000n);

    await expect(take(accountId, 1_001n)).resolves.toEqual({
      ok: false,
      reason: 'insufficient_balance',
      availableMicros: 1_000n,
    });
  });

  it('lets the overdraft limit take available down to minus the limit and no further', async () => {
    const accountId = await billing.fundedAccount(0n, 3_000n);

    await expect(take(accountId, 2_000n)).resolves.toEqual({ ok: true });
    await expect(take(accountId, 1_000n)).resolves.toEqual({ ok: true });
    await expect(take(accountId, 1n)).resolves.toMatchObject({ ok: false, availableMicros: 0n });

    const balance = await billing.credits.balanceOf(accountId);
    expect(balance).toEqual({ balance: 0n, held: 3_000n, available: -3_000n, overdraftLimit: 3_000n });
  });

  it('refuses a second hold for the same request and leaves the first intact', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const requestId = nextRequestId();
    await take(accountId, 1_000n, requestId);

    await expect(take(accountId, 1_000n, requestId)).rejects.toThrow(/duplicate key/);

    expect((await billing.credits.balanceOf(accountId))?.held).toBe(1_000n);
  });

  it('decides a batch of holds in order, each account against what the holds before it left', async () => {
    const first = await billing.fundedAccount(3_000n);
    const second = await billing.fundedAccount(1_000n);
    const ids = Array.from({ length: 6 }, () => nextRequestId());
    const batch = [
      { requestId: ids[0], accountId: first, amount: 2_000n },
      { requestId: ids[1], accountId: first, amount: 1_500n },
      { requestId: ids[2], accountId: first, amount: 1_000n },
      { requestId: ids[3], accountId: 'acct_missing', amount: 1n },
      { requestId: ids[4], accountId: second, amount: 1_000n },
      { requestId: ids[5], accountId: second, amount: 1n },
    ];

    // One statement, as HoldService sends a batch under load.
    const rows = await billing.prisma.$queryRaw<
      { request_id: string; taken: boolean; available: string | null }[]
    >`
      SELECT request_id, taken, available FROM take_holds(
        ${batch.map((hold) => hold.requestId)}::text[], ${batch.map((hold) => hold.accountId)}::text[],
        ${batch.map(() => 'key_1')}::text[], ${batch.map(() => 'omega-text-1')}::text[],
        ${batch.map(() => '/v1/chat/completions')}::text[], ${batch.map((hold) => hold.amount.toString())}::int8[],
        ${batch.map(() => 60_000)}::int8[])`;

    expect(rows).toEqual([
      { request_id: ids[0], taken: true, available: null },
      { request_id: ids[1], taken: false, available: '1000' },
      { request_id: ids[2], taken: true, available: null },
      { request_id: ids[3], taken: false, available: null },
      { request_id: ids[4], taken: true, available: null },
      { request_id: ids[5], taken: false, available: '0' },
    ]);
    expect((await billing.credits.balanceOf(first))?.held).toBe(3_000n);
    expect((await billing.credits.balanceOf(second))?.held).toBe(1_000n);
    const holdRows = await billing.prisma.hold.findMany({
      where: { requestId: { in: ids } },
      orderBy: { requestId: 'asc' },
      select: { requestId: true, amount: true },
    });
    expect(holdRows).toEqual(
      [ids[0], ids[2], ids[4]].sort().map((requestId) => ({
        requestId,
        amount: batch.find((hold) => hold.requestId === requestId)?.amount,
      })),
    );
    for (const accountId of [first, second]) {
      expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
    }
  });

  it('fails loudly for an unknown account', async () => {
    await expect(take('acct_missing', 1n)).rejects.toThrow('unknown account acct_missing');
  });

  it('refuses a negative amount, or one above the largest hold, before touching the database', async () => {
    const accountId = await billing.fundedAccount(10n);
    await expect(take(accountId, -1n)).rejects.toThrow(RangeError);
    await expect(take(accountId, MAX_HOLD_MICROS + 1n)).rejects.toThrow(RangeError);
    expect((await billing.credits.balanceOf(accountId))?.held).toBe(0n);
  });
});
