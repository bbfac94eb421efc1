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

  async function takeHold(accountId: string, amount: bigint, requestId = nextRequestId()): Promise<string> {
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
    // Free money beyond the holds, so that every overshoot below is paid whatever the order.
    await billing.credits.credit({ accountId, amountMicros: 5_000n, idempotencyKey: `more:${accountId}` });
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
      balance: 15_000n - totalCaptured,
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
      ['credit', 2],
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

  it('captures beyond the hold what the account has free', async () => {
    const accountId = await billing.fundedAccount(5_000n);
    const requestId = await takeHold(accountId, 1_000n);

    const result = await billing.settlements.settleMany([
      { requestId, captureMicros: 1_600n, log: completedLog },
    ]);

    expect(result).toEqual({ appliedRequestIds: [requestId], overages: [] });
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 3_400n, held: 0n });
    expect((await ledgerOf(requestId)).map((entry) => [entry.kind, entry.amount])).toEqual([
      ['capture', 1_600n],
    ]);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('caps a capture at what the account can pay and logs the rest as overage', async () => {
    const accountId = await billing.fundedAccount(1_000n, 500n);
    const requestId = await takeHold(accountId, 1_000n);

    const result = await billing.settlements.settleMany([
      { requestId, captureMicros: 40_000n, log: completedLog },
    ]);

    // The hold (1,000) and the overdraft (500) are all the account can pay.
    expect(result).toEqual({ appliedRequestIds: [requestId], overages: [{ requestId, micros: 38_500n }] });
    expect(await billing.credits.balanceOf(accountId)).toEqual({
      balance: -500n,
      held: 0n,
      available: -500n,
      overdraftLimit: 500n,
    });
    expect((await ledgerOf(requestId)).map((entry) => [entry.kind, entry.amount])).toEqual([
      ['capture', 1_500n],
    ]);
    expect(await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } })).toMatchObject({
      costMicros: 1_500n,
      overageMicros: 38_500n,
    });
    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      balanced: true,
      withinOverdraft: true,
      uncaptured: 38_500n,
      capturesUnlikeTheirLog: 0,
    });
  });

  it("shares an account's budget in one batch: every hold's covered part first, then overshoots in order", async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const holds = [];
    for (const suffix of ['a', 'b', 'c', 'd']) {
      holds.push(await takeHold(accountId, 2_000n, `${accountId}-${suffix}`));
    }
    // 8,000 held, 2,000 free.
    const requested = [9_000n, 1_500n, 3_000n, 2_000n];

    const { appliedRequestIds, overages } = await billing.settlements.settleMany(
      holds.map((requestId, index) => ({ requestId, captureMicros: requested[index], log: completedLog })),
    );

    expect(appliedRequestIds.sort()).toEqual([...holds].sort());
    const logs = await billing.prisma.requestLog.findMany({
      where: { requestId: { in: holds } },
      select: { requestId: true, costMicros: true, overageMicros: true },
    });
    const costOf = (requestId: string) => logs.find((log) => log.requestId === requestId);
    // Budget 10,000: the covered parts 2,000 + 1,500 + 2,000 + 2,000, then 2,500 of overshoot in
    // request order: 2,500 of the first's 7,000, nothing left for the third's 1,000.
    expect(holds.map((requestId) => costOf(requestId)?.costMicros)).toEqual([4_500n, 1_500n, 2_000n, 2_000n]);
    expect(holds.map((requestId) => costOf(requestId)?.overageMicros)).toEqual([4_500n, 0n, 1_000n, 0n]);
    expect(overages.sort((a, b) => (a.requestId < b.requestId ? -1 : 1))).toEqual([
      { requestId: holds[0], micros: 4_500n },
      { requestId: holds[2], micros: 1_000n },
    ]);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 0n, held: 0n });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('never takes an account below minus its overdraft limit, even when its holds outgrew it', async () => {
    const accountId = await billing.fundedAccount(1_000n, 2_000n);
    const requestId = await takeHold(accountId, 3_000n);
    // The operator lowered the overdraft limit while the hold was open.
    await billing.prisma.account.update({ where: { id: accountId }, data: { overdraftLimit: 0n } });

    await billing.settlements.settle({ requestId, captureMicros: 3_000n, log: completedLog });

    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 0n, held: 0n });
    const log = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } });
    expect([log.costMicros, log.overageMicros]).toEqual([1_000n, 2_000n]);
    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      balanced: true,
      withinOverdraft: true,
    });
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
    expect(recorded.recordedRequestIds.sort()).toEqual([requestId, otherRequestId].sort());
    expect(recorded.refused).toEqual([]);
    await expect(billing.settlements.recordWithoutHold([{ ...log, httpStatus: 500 }])).resolves.toEqual({
      recordedRequestIds: [],
      refused: [],
    });
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

  describe('values Postgres would refuse', () => {
    function refusalLog(requestId: string, model = 'omega-text-1') {
      return {
        requestId,
        keyId: 'key_1',
        accountId: 'acct_refused',
        model,
        route: '/v1/chat/completions',
        httpStatus: 404,
        endReason: 'refused',
        latencyMs: 2,
        inputTokens: 0,
        outputTokens: 0,
        costMicros: 0n,
        attempts: 0,
      };
    }

    it('stores a NUL or a lone surrogate as U+FFFD, and its 40 batch-mates with it', async () => {
      const good = Array.from({ length: 40 }, () => refusalLog(nextRequestId()));
      const nul = refusalLog(nextRequestId(), 'omega\u0000text');
      const surrogate = refusalLog(nextRequestId(), 'omega\ud800text');

      const result = await billing.settlements.recordWithoutHold([
        ...good.slice(0, 20),
        nul,
        surrogate,
        ...good.slice(20),
      ]);

      expect(result.refused).toEqual([]);
      expect(result.recordedRequestIds).toHaveLength(42);
      const stored = await billing.prisma.requestLog.findMany({
        where: { requestId: { in: [nul.requestId, surrogate.requestId] } },
        select: { model: true },
      });
      expect(stored.map((row) => row.model).sort()).toEqual(['omega\ufffdtext', 'omega\ufffdtext']);
      expect(
        await billing.prisma.requestLog.count({
          where: { requestId: { in: good.map((log) => log.requestId) } },
        }),
      ).toBe(40);
    });

    it('writes the rows of a refused batch one by one, so only the row Postgres still refuses is lost', async () => {
      // A constraint no sanitising satisfies stands for any value the database refuses.
      await billing.pool.query(
        "ALTER TABLE request_logs ADD CONSTRAINT spec_refuses_model CHECK (model IS DISTINCT FROM 'refused-model')",
      );
      try {
        const good = Array.from({ length: 40 }, () => refusalLog(nextRequestId()));
        const bad = refusalLog(nextRequestId(), 'refused-model');

        const result = await billing.settlements.recordWithoutHold([
          ...good.slice(0, 7),
          bad,
          ...good.slice(7),
        ]);

        expect(result.recordedRequestIds.sort()).toEqual(good.map((log) => log.requestId).sort());
        expect(result.refused).toHaveLength(1);
        expect(result.refused[0].log).toBe(bad);
        expect(String(result.refused[0].error)).toMatch(/spec_refuses_model/);
        expect(await billing.prisma.requestLog.count({ where: { requestId: bad.requestId } })).toBe(0);
      } finally {
        await billing.pool.query('ALTER TABLE request_logs DROP CONSTRAINT spec_refuses_model');
      }
    });

    it('settles usage beyond the int4 columns, storing the counts at their maximum', async () => {
      const accountId = await billing.fundedAccount(10_000n);
      const requestId = await takeHold(accountId, 1_000n);

      await billing.settlements.settle({
        requestId,
        captureMicros: 900n,
        log: { ...completedLog, inputTokens: 3_000_000_000, outputTokens: 1.5, latencyMs: 3e12 },
      });

      expect(await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } })).toMatchObject({
        inputTokens: 2_147_483_647,
        outputTokens: 2,
        latencyMs: 2_147_483_647,
        costMicros: 900n,
      });
      expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
    });
  });
});
