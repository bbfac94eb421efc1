import type { Pool } from 'pg';
import type { LeasedHold, TakeHoldResult } from '../hold/hold.types';
import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';
import { HoldLeases, type HoldLeaseOptions } from './hold-leases';

const HOLD = 1_000n;

describe('HoldLeases (Postgres)', () => {
  let billing: BillingDatabase;
  const errors: string[] = [];
  const started: HoldLeases[] = [];

  beforeAll(async () => {
    billing = await openBillingDatabase(20);
  });
  afterEach(async () => {
    for (const leases of started.splice(0)) await leases.stop();
    expect(errors.splice(0)).toEqual([]);
  });
  afterAll(() => billing?.close());

  /** A HoldLeases on the test database whose statements are counted (round trips, not a mock). */
  function leasesWith(options: Partial<HoldLeaseOptions> = {}) {
    const counted = { statements: 0 };
    const query = billing.pool.query.bind(billing.pool) as (...args: unknown[]) => unknown;
    const pool = {
      query: (...args: unknown[]) => {
        counted.statements += 1;
        return query(...args);
      },
    } as Pick<Pool, 'query'>;
    const leases = new HoldLeases(pool, billing.holds, {
      holdsAhead: 4,
      idleMs: 60_000,
      ttlMs: 60_000,
      owner: 'spec',
      onError: (error, what) => errors.push(`${what}: ${String(error)}`),
      ...options,
    });
    started.push(leases);
    return { leases, counted };
  }

  function take(leases: HoldLeases, accountId: string, amount = HOLD) {
    return leases.take({
      requestId: nextRequestId(),
      accountId,
      keyId: 'key_1',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount,
      ttlMs: 600_000,
    });
  }

  function leasedHold(result: TakeHoldResult): LeasedHold {
    if (!result.ok || !result.lease) throw new Error(`expected a leased hold, got ${JSON.stringify(result)}`);
    return result.lease;
  }

  function logOf(hold: LeasedHold) {
    return {
      route: hold.route,
      httpStatus: 200,
      endReason: 'completed',
      latencyMs: 5,
      inputTokens: 3,
      outputTokens: 4,
      attempts: 1,
    };
  }

  /** Ends a leased hold as the gateway does: here at once, in the database in a batch. */
  async function settle(leases: HoldLeases, hold: LeasedHold, captureMicros: bigint, requestId: string) {
    const ended = leases.release(hold, captureMicros);
    return billing.settlements.settleMany([{ requestId, captureMicros, lease: ended, log: logOf(ended) }]);
  }

  async function openLeases(accountId: string) {
    return billing.prisma.lease.findMany({ where: { accountId, status: 'open' } });
  }

  it('reserves once for many holds: one statement, then holds in memory while the lease covers them', async () => {
    const accountId = await billing.fundedAccount(100n * HOLD);
    const { leases, counted } = leasesWith({ holdsAhead: 4 });

    const results = [];
    for (let i = 0; i < 5; i += 1) results.push(await take(leases, accountId));

    expect(results.every((result) => result.ok && result.lease)).toBe(true);
    expect(counted.statements).toBe(1);
    const [lease] = await openLeases(accountId);
    expect(lease.amount).toBe(5n * HOLD);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({
      balance: 100n * HOLD,
      held: 5n * HOLD,
    });
    expect(await billing.prisma.hold.count({ where: { accountId } })).toBe(0);

    await take(leases, accountId);
    expect(counted.statements).toBe(2);
    expect((await openLeases(accountId))[0].amount).toBe(10n * HOLD);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('lets exactly as many concurrent holds through as the balance covers, across two processes', async () => {
    const accountId = await billing.fundedAccount(10n * HOLD);
    const first = leasesWith({ holdsAhead: 3 }).leases;
    const second = leasesWith({ holdsAhead: 3 }).leases;

    const results = await Promise.all(
      Array.from({ length: 200 }, (_, index) => take(index % 2 === 0 ? first : second, accountId)),
    );

    expect(results.filter((result) => result.ok)).toHaveLength(10);
    for (const refusal of results.filter((result) => !result.ok)) {
      expect(refusal).toEqual({ ok: false, reason: 'insufficient_balance', availableMicros: 0n });
    }
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ held: 10n * HOLD, available: 0n });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('settles a leased hold once: no hold row, its log the guard, the capture taken, the rest kept in the lease', async () => {
    const accountId = await billing.fundedAccount(20_000n);
    const { leases } = leasesWith({ holdsAhead: 1 });
    const hold = leasedHold(await take(leases, accountId, 5_000n));
    const requestId = nextRequestId();

    expect(await settle(leases, hold, 1_200n, requestId)).toEqual({
      appliedRequestIds: [requestId],
      overages: [],
    });
    const again = { requestId, captureMicros: 1_200n, lease: hold, log: logOf(hold) };
    expect(await billing.settlements.settleMany([again])).toEqual({ appliedRequestIds: [], overages: [] });

    expect(await billing.prisma.hold.count({ where: { requestId } })).toBe(0);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 18_800n, held: 8_800n });
    expect((await openLeases(accountId))[0].amount).toBe(8_800n);
    const captures = await billing.prisma.ledgerEntry.findMany({ where: { accountId, kind: 'capture' } });
    expect(captures.map((entry) => entry.amount)).toEqual([1_200n]);
    expect(await billing.prisma.requestLog.count({ where: { requestId } })).toBe(1);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);

    // What the hold did not capture can be held again from the same lease.
    expect(await take(leases, accountId, 8_800n)).toMatchObject({
      ok: true,
      lease: { leaseId: hold.leaseId },
    });
  });

  it('settles overlapping batches of leased holds concurrently, each request once', async () => {
    const accountId = await billing.fundedAccount(100n * HOLD);
    const { leases } = leasesWith({ holdsAhead: 20 });
    const settlements = [];
    for (let index = 0; index < 20; index += 1) {
      const hold = leasedHold(await take(leases, accountId));
      leases.release(hold, 400n);
      settlements.push({ requestId: nextRequestId(), captureMicros: 400n, lease: hold, log: logOf(hold) });
    }

    const results = await Promise.all([
      billing.settlements.settleMany(settlements),
      billing.settlements.settleMany([...settlements].reverse()),
      billing.settlements.settleMany(settlements.filter((_, index) => index % 2 === 0)),
    ]);

    const applied = results.flatMap((result) => result.appliedRequestIds).sort();
    expect(applied).toEqual(settlements.map((settlement) => settlement.requestId).sort());
    expect(await billing.prisma.ledgerEntry.count({ where: { accountId, kind: 'capture' } })).toBe(20);
    expect(await billing.prisma.requestLog.count({ where: { accountId } })).toBe(20);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 100n * HOLD - 8_000n });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it("captures an overshoot from the lease's spare, then from the account's free money", async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const { leases } = leasesWith({ holdsAhead: 1 });
    // The lease reserves 2,000: this hold and one ahead.
    const hold = leasedHold(await take(leases, accountId, 1_000n));

    const ended = leases.release(hold, 3_500n);
    expect(ended.amount).toBe(2_000n);
    await billing.settlements.settleMany([
      { requestId: nextRequestId(), captureMicros: 3_500n, lease: ended, log: logOf(ended) },
    ]);

    expect((await openLeases(accountId))[0].amount).toBe(0n);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 6_500n, held: 0n });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
    // The lease here gave its spare to the overshoot and is empty, as in the database: the next hold
    // reserves its own 1,000 and one ahead.
    expect(await take(leases, accountId, 1_000n)).toMatchObject({ ok: true });
    expect((await openLeases(accountId))[0].amount).toBe(2_000n);
  });

  it('caps the capture of a leased hold at what the account can pay, holds of the same lease first', async () => {
    const accountId = await billing.fundedAccount(3_000n);
    const { leases } = leasesWith({ holdsAhead: 1 });
    const overshooting = leasedHold(await take(leases, accountId, 1_000n));
    const modest = leasedHold(await take(leases, accountId, 1_000n));
    // The lease reserved 2,000 (the first hold and one ahead), which both holds use; 1,000 is free.
    expect((await openLeases(accountId))[0].amount).toBe(2_000n);
    const overshootId = nextRequestId();
    const modestId = nextRequestId();

    const ended = leases.release(overshooting, 50_000n);
    const result = await billing.settlements.settleMany([
      { requestId: overshootId, captureMicros: 50_000n, lease: ended, log: logOf(ended) },
    ]);
    expect(result).toEqual({
      appliedRequestIds: [overshootId],
      overages: [{ requestId: overshootId, micros: 48_000n }],
    });
    // The other hold is still reserved in full, and settles in full.
    await settle(leases, modest, 1_000n, modestId);

    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 0n, held: 0n });
    const logs = await billing.prisma.requestLog.findMany({
      where: { requestId: { in: [overshootId, modestId] } },
      select: { requestId: true, costMicros: true, overageMicros: true },
      orderBy: { costMicros: 'desc' },
    });
    expect(logs).toEqual([
      { requestId: overshootId, costMicros: 2_000n, overageMicros: 48_000n },
      { requestId: modestId, costMicros: 1_000n, overageMicros: 0n },
    ]);
    expect(await billing.audit.auditAccount(accountId)).toMatchObject({
      balanced: true,
      withinOverdraft: true,
      uncaptured: 48_000n,
    });
  });

  it('gives the rest back when idle leases close, and refuses what neither the lease nor the account covers', async () => {
    const accountId = await billing.fundedAccount(3_000n);
    const { leases } = leasesWith({ holdsAhead: 10 });
    const hold = leasedHold(await take(leases, accountId, 1_000n));
    expect(await take(leases, accountId, 2_500n)).toEqual({
      ok: false,
      reason: 'insufficient_balance',
      availableMicros: 2_000n,
    });

    await leases.closeIdle(0);
    expect(await openLeases(accountId)).toHaveLength(1);
    await settle(leases, hold, 400n, nextRequestId());
    await leases.closeIdle(0);

    expect(await openLeases(accountId)).toHaveLength(0);
    expect(await billing.credits.balanceOf(accountId)).toEqual({
      balance: 2_600n,
      held: 0n,
      available: 2_600n,
      overdraftLimit: 0n,
    });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('starts a new lease when the reaper closed a lapsed one, and still settles the holds of the old', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const { leases } = leasesWith({ holdsAhead: 1, ttlMs: 400 });
    const hold = leasedHold(await take(leases, accountId));
    await new Promise((resolve) => setTimeout(resolve, 450));

    expect(await billing.reaper.closeExpiredLeases(100)).toBe(1);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ held: 0n });

    const next = leasedHold(await take(leases, accountId));
    expect(next.leaseId).not.toBe(hold.leaseId);
    await settle(leases, hold, 700n, nextRequestId());
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 9_300n, held: 2n * HOLD });
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('renews a lease while a hold is open, so the reaper leaves it alone', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const { leases } = leasesWith({ holdsAhead: 1, ttlMs: 600, idleMs: 100 });
    leases.start(50);
    expect(leases.sweeping).toBe(false);
    const hold = leasedHold(await take(leases, accountId));
    expect(leases.sweeping).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1_000));

    expect(await billing.reaper.closeExpiredLeases(100)).toBe(0);
    expect(await openLeases(accountId)).toHaveLength(1);
    await settle(leases, hold, 100n, nextRequestId());
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await openLeases(accountId)).toHaveLength(0);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 9_900n, held: 0n });
    // No lease left, no sweep; the next lease starts it again.
    expect(leases.sweeping).toBe(false);
    await take(leases, accountId);
    expect(leases.sweeping).toBe(true);
  });

  it('takes free holds, refuses an unknown account, and writes every hold when leases are off', async () => {
    const accountId = await billing.fundedAccount(0n);
    const { leases } = leasesWith();
    expect(await take(leases, accountId, 0n)).toMatchObject({ ok: true, lease: { amount: 0n } });
    await expect(take(leases, 'acct_missing')).rejects.toThrow(/unknown account acct_missing/);
    await expect(take(leases, accountId, -1n)).rejects.toThrow(RangeError);

    const funded = await billing.fundedAccount(5_000n);
    const off = leasesWith({ holdsAhead: 0 }).leases;
    expect(await take(off, funded)).toEqual({ ok: true });
    expect(await billing.prisma.hold.count({ where: { accountId: funded, status: 'open' } })).toBe(1);
  });

  it('closes every lease on stop', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const { leases } = leasesWith({ holdsAhead: 3 });
    await take(leases, accountId);

    await leases.stop();

    expect(await openLeases(accountId)).toHaveLength(0);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ held: 0n });
  });
});
