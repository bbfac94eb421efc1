import type { SettlementLogInput } from './request-log.types';
import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';

const completedLog: SettlementLogInput = {
  route: '/v1/chat/completions',
  channelId: 'chan_1',
  httpStatus: 200,
  endReason: 'completed',
  latencyMs: 120,
  ttfbMs: 40,
  inputTokens: 10,
  outputTokens: 20,
  attempts: 1,
};

describe('SettlementService (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(20);
  });
  afterAll(() => billing?.close());

  async function takeHold(accountId: string, amount: bigint): Promise<string> {
    const requestId = nextRequestId();
    const result = await billing.holds.take({
      requestId,
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount,
      ttlMs: 60_000,
    });
    expect(result).toEqual({ ok: true });
    return requestId;
  }

  function ledgerOf(requestId: string) {
    return billing.prisma.ledgerEntry.findMany({
      where: { requestId },
      select: { kind: true, amount: true, idempotencyKey: true },
      orderBy: { id: 'asc' },
    });
  }

  it('settles concurrent holds so that the ledger balances and the balance drops by the captures', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const results = await Promise.all(
      Array.from({ length: 200 }, () =>
        billing.holds.take({
          requestId: nextRequestId(),
          accountId,
          keyId: 'key_1',
          model: 'omega-text-1',
          route: '/v1/chat/completions',
          amount: 1_000n,
          ttlMs: 60_000,
        }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    const openHolds = await billing.prisma.hold.findMany({ where: { accountId, status: 'open' } });
    // Nothing, part, all, and more than the hold.
    const captures = [0n, 1n, 250n, 999n, 1_000n, 1_000n, 500n, 1_500n, 0n, 3_000n];
    await Promise.all(
      openHolds.map((hold, index) =>
        billing.settlements.settle({
          requestId: hold.requestId,
          captureMicros: captures[index],
          log: completedLog,
        }),
      ),
    );

    const totalCaptured = captures.reduce((sum, capture) => sum + capture, 0n);
    const audit = await billing.audit.auditAccount(accountId);
    expect(audit).toMatchObject({
      balanced: true,
      balance: 10_000n - totalCaptured,
      held: 0n,
      captures: totalCaptured,
      openHolds: 0n,
      capturesWithoutSettlement: 0,
    });
    // The ledger records the money that moved: one capture row per hold that captured something.
    const ledgerKinds = await billing.prisma.ledgerEntry.groupBy({
      by: ['kind'],
      where: { accountId },
      _count: true,
      orderBy: { kind: 'asc' },
    });
    expect(ledgerKinds.map((group) => [group.kind, group._count])).toEqual([
      ['capture', 8],
      ['credit', 1],
    ]);
  });

  it('captures exactly once however often the same settlement arrives', async () => {
    const accountId = await billing.fundedAccount(5_000n);
    const requestId = await takeHold(accountId, 2_000n);
    const settlement = { requestId, captureMicros: 700n, log: completedLog };

    const outcomes = await Promise.all([
      billing.settlements.settle(settlement),
      billing.settlements.settle(settlement),
      billing.settlements.settle({ ...settlement, captureMicros: 1_900n }),
    ]);
    const replay = await billing.settlements.settle(settlement);

    expect(outcomes.filter((outcome) => outcome.applied)).toHaveLength(1);
    expect(replay).toEqual({ applied: false });
    const balance = await billing.credits.balanceOf(accountId);
    expect(balance?.held).toBe(0n);
    const captured = 5_000n - (balance?.balance ?? 0n);
    expect([700n, 1_900n]).toContain(captured);
    expect(await ledgerOf(requestId)).toEqual([
      { kind: 'capture', amount: captured, idempotencyKey: `capture:${requestId}` },
    ]);
    expect(await billing.prisma.requestLog.count({ where: { requestId } })).toBe(1);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('writes the request log from the settlement, filling key, account and model from the hold', async () => {
    const accountId = await billing.fundedAccount(5_000n);
    const requestId = await takeHold(accountId, 2_000n);

    await billing.settlements.settle({ requestId, captureMicros: 321n, log: completedLog });

    const log = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } });
    expect(log).toMatchObject({
      requestId,
      keyId: 'key_1',
      accountId,
      model: 'omega-text-1',
      channelId: 'chan_1',
      route: '/v1/chat/completions',
      httpStatus: 200,
      endReason: 'completed',
      latencyMs: 120,
      ttfbMs: 40,
      inputTokens: 10,
      outputTokens: 20,
      costMicros: 321n,
      attempts: 1,
    });
    const hold = await billing.prisma.hold.findUniqueOrThrow({ where: { requestId } });
    expect(hold.status).toBe('settled');
    expect(hold.settledAt).not.toBeNull();
  });

  it('captures the full actual cost beyond the hold', async () => {
    const accountId = await billing.fundedAccount(1_000n);
    const requestId = await takeHold(accountId, 1_000n);

    await billing.settlements.settle({ requestId, captureMicros: 1_600n, log: completedLog });

    expect(await billing.credits.balanceOf(accountId)).toEqual({
      balance: -600n,
      held: 0n,
      available: -600n,
      overdraftLimit: 0n,
    });
    expect((await ledgerOf(requestId)).map((entry) => [entry.kind, entry.amount])).toEqual([
      ['capture', 1_600n],
    ]);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('releases the whole hold and writes no capture row when nothing is captured', async () => {
    const accountId = await billing.fundedAccount(1_000n);
    const requestId = await takeHold(accountId, 800n);

    await billing.settlements.settle({
      requestId,
      captureMicros: 0n,
      log: { ...completedLog, httpStatus: 502 },
    });

    expect(await ledgerOf(requestId)).toEqual([]);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 1_000n, held: 0n });
    expect((await billing.prisma.hold.findUniqueOrThrow({ where: { requestId } })).status).toBe('settled');
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('lets an overdraft account be captured down to minus its limit and holds no further', async () => {
    const accountId = await billing.fundedAccount(0n, 2_000n);
    const first = await takeHold(accountId, 1_500n);
    const second = await takeHold(accountId, 500n);
    await billing.settlements.settle({ requestId: first, captureMicros: 1_500n, log: completedLog });
    await billing.settlements.settle({ requestId: second, captureMicros: 500n, log: completedLog });

    const refused = await billing.holds.take({
      requestId: nextRequestId(),
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount: 1n,
      ttlMs: 60_000,
    });

    expect(refused).toEqual({ ok: false, reason: 'insufficient_balance', availableMicros: 0n });
    expect(await billing.credits.balanceOf(accountId)).toEqual({
      balance: -2_000n,
      held: 0n,
      available: -2_000n,
      overdraftLimit: 2_000n,
    });
  });

  it('settles a batch across accounts in one call, each hold once, and skips settled ones', async () => {
    const firstAccount = await billing.fundedAccount(10_000n);
    const secondAccount = await billing.fundedAccount(10_000n);
    const alreadySettled = await takeHold(firstAccount, 1_000n);
    await billing.settlements.settle({ requestId: alreadySettled, captureMicros: 100n, log: completedLog });
    const batch = [
      { requestId: await takeHold(firstAccount, 1_000n), captureMicros: 200n, log: completedLog },
      { requestId: await takeHold(firstAccount, 2_000n), captureMicros: 2_500n, log: completedLog },
      { requestId: await takeHold(secondAccount, 3_000n), captureMicros: 300n, log: completedLog },
      { requestId: alreadySettled, captureMicros: 9_000n, log: completedLog },
    ];

    const { appliedRequestIds } = await billing.settlements.settleMany([...batch, batch[0]]);

    expect(appliedRequestIds.sort()).toEqual(
      batch
        .slice(0, 3)
        .map((item) => item.requestId)
        .sort(),
    );
    expect(await billing.credits.balanceOf(firstAccount)).toMatchObject({
      balance: 10_000n - 2_800n,
      held: 0n,
    });
    expect(await billing.credits.balanceOf(secondAccount)).toMatchObject({ balance: 9_700n, held: 0n });
    expect((await billing.audit.auditAccount(firstAccount)).balanced).toBe(true);
    expect((await billing.audit.auditAccount(secondAccount)).balanced).toBe(true);
    const log = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId: alreadySettled } });
    expect(log.costMicros).toBe(100n);
  });

  it('settles overlapping batches on shared accounts concurrently without deadlock or double effect', async () => {
    const accounts = await Promise.all([
      billing.fundedAccount(100_000n),
      billing.fundedAccount(100_000n),
      billing.fundedAccount(100_000n),
    ]);
    const holds: string[] = [];
    for (let index = 0; index < 30; index += 1) holds.push(await takeHold(accounts[index % 3], 1_000n));
    const batchOf = (requestIds: string[]) =>
      requestIds.map((requestId) => ({ requestId, captureMicros: 400n, log: completedLog }));

    const results = await Promise.all([
      billing.settlements.settleMany(batchOf(holds)),
      billing.settlements.settleMany(batchOf([...holds].reverse())),
      billing.settlements.settleMany(batchOf(holds.filter((_, index) => index % 2 === 0))),
    ]);

    const applied = results.flatMap((result) => result.appliedRequestIds);
    expect(applied.sort()).toEqual([...holds].sort());
    for (const accountId of accounts) {
      expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 96_000n, held: 0n });
      expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
    }
  });

  it('does nothing for a request that never held', async () => {
    const requestId = nextRequestId();

    await expect(
      billing.settlements.settle({ requestId, captureMicros: 5n, log: completedLog }),
    ).resolves.toEqual({
      applied: false,
    });
    expect(await billing.prisma.requestLog.count({ where: { requestId } })).toBe(0);
  });

  it('refuses a negative capture', async () => {
    const accountId = await billing.fundedAccount(1_000n);
    const requestId = await takeHold(accountId, 500n);

    await expect(
      billing.settlements.settle({ requestId, captureMicros: -1n, log: completedLog }),
    ).rejects.toThrow(RangeError);
    expect((await billing.prisma.hold.findUniqueOrThrow({ where: { requestId } })).status).toBe('open');
  });

  it('records requests refused before any hold in one batch, each once', async () => {
    const requestId = nextRequestId();
    const otherRequestId = nextRequestId();
    const log = {
      requestId,
      keyId: 'key_1',
      accountId: 'acct_unknown_to_logs',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      httpStatus: 402,
      endReason: 'insufficient_balance',
      latencyMs: 3,
      inputTokens: 0,
      outputTokens: 0,
      costMicros: 0n,
      attempts: 0,
    };
    const writtenFrom = Date.now();

    const other = {
      ...log,
      requestId: otherRequestId,
      channelId: 'ch_1',
      ttfbMs: 7,
      costMicros: 9_007_199_254_740_993n,
    };

    const recorded = await billing.settlements.recordWithoutHold([log, other]);
    const writtenBy = Date.now();
    expect(recorded.sort()).toEqual([requestId, otherRequestId].sort());
    await expect(billing.settlements.recordWithoutHold([{ ...log, httpStatus: 500 }])).resolves.toEqual([]);
    const stored = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } });
    expect(stored).toMatchObject({
      keyId: 'key_1',
      channelId: null,
      httpStatus: 402,
      endReason: 'insufficient_balance',
      ttfbMs: null,
      costMicros: 0n,
      attempts: 0,
    });
    // Stored as UTC like every other timestamp, so Prisma reads back the moment it was written.
    expect(stored.createdAt.getTime()).toBeGreaterThanOrEqual(writtenFrom - 5);
    expect(stored.createdAt.getTime()).toBeLessThanOrEqual(writtenBy + 5);
    const storedOther = await billing.prisma.requestLog.findUniqueOrThrow({
      where: { requestId: otherRequestId },
    });
    expect(storedOther).toMatchObject({ channelId: 'ch_1', ttfbMs: 7, costMicros: 9_007_199_254_740_993n });
  });
});
