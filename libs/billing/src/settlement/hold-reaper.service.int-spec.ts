import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';

describe('HoldReaper (Postgres)', () => {
  let billing: BillingDatabase;

  beforeAll(async () => {
    billing = await openBillingDatabase(10);
  });
  afterAll(() => billing?.close());

  async function takeHold(accountId: string, amount: bigint, ttlMs: number): Promise<string> {
    const requestId = nextRequestId();
    await billing.holds.take({
      requestId,
      accountId,
      keyId: 'key_9',
      model: 'omega-text-1',
      route: '/v1/chat/completions',
      amount,
      ttlMs,
    });
    return requestId;
  }

  /** Moves a hold's deadline into the past, as if its process had died long ago. */
  async function expire(requestId: string): Promise<void> {
    await billing.pool.query(
      `UPDATE holds SET created_at = created_at - interval '10 minutes',
                        expires_at = expires_at - interval '10 minutes'
        WHERE request_id = $1`,
      [requestId],
    );
  }

  it('releases an expired hold exactly once when two reapers run at the same time', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const expired = await takeHold(accountId, 4_000n, 60_000);
    const live = await takeHold(accountId, 1_000n, 60_000);
    await expire(expired);

    const counts = await Promise.all([billing.reaper.reapExpired(100), billing.reaper.reapExpired(100)]);

    expect(counts.sort()).toEqual([0, 1]);
    expect(await billing.reaper.reapExpired(100)).toBe(0);
    expect(await billing.credits.balanceOf(accountId)).toMatchObject({ balance: 10_000n, held: 1_000n });
    expect((await billing.prisma.hold.findUniqueOrThrow({ where: { requestId: live } })).status).toBe('open');
    // Released in full: no money moved, so the ledger has no row for it.
    expect(await billing.prisma.ledgerEntry.count({ where: { requestId: expired } })).toBe(0);
    expect((await billing.prisma.hold.findUniqueOrThrow({ where: { requestId: expired } })).status).toBe(
      'settled',
    );
    const log = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId: expired } });
    expect(log).toMatchObject({
      endReason: 'abandoned',
      httpStatus: 0,
      costMicros: 0n,
      keyId: 'key_9',
      accountId,
      model: 'omega-text-1',
      route: '/v1/chat/completions',
    });
    expect(log.latencyMs).toBeGreaterThanOrEqual(600_000);
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('loses the race to a late settlement by the owning request without a second effect', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const requestId = await takeHold(accountId, 2_000n, 60_000);
    await expire(requestId);

    const [settled, reaped] = await Promise.all([
      billing.settlements.settle({
        requestId,
        captureMicros: 1_500n,
        log: {
          route: '/v1/chat/completions',
          httpStatus: 200,
          endReason: 'completed',
          latencyMs: 10,
          inputTokens: 1,
          outputTokens: 1,
          attempts: 1,
        },
      }),
      billing.reaper.reapExpired(100),
    ]);

    expect(Number(settled.applied) + reaped).toBe(1);
    const log = await billing.prisma.requestLog.findUniqueOrThrow({ where: { requestId } });
    const balance = await billing.credits.balanceOf(accountId);
    if (settled.applied) {
      expect(log.endReason).toBe('completed');
      expect(balance).toMatchObject({ balance: 8_500n, held: 0n });
    } else {
      expect(log.endReason).toBe('abandoned');
      expect(balance).toMatchObject({ balance: 10_000n, held: 0n });
    }
    expect((await billing.audit.auditAccount(accountId)).balanced).toBe(true);
  });

  it('reaps at most the limit, oldest deadline first', async () => {
    const accountId = await billing.fundedAccount(10_000n);
    const holds = [await takeHold(accountId, 100n, 60_000), await takeHold(accountId, 100n, 60_000)];
    for (const requestId of holds) await expire(requestId);
    await billing.pool.query(
      `UPDATE holds SET expires_at = expires_at - interval '1 minute' WHERE request_id = $1`,
      [holds[1]],
    );

    expect(await billing.reaper.reapExpired(1)).toBe(1);

    const statuses = await billing.prisma.hold.findMany({ where: { requestId: { in: holds } } });
    const statusOf = (requestId: string) => statuses.find((hold) => hold.requestId === requestId)?.status;
    expect(statusOf(holds[1])).toBe('settled');
    expect(statusOf(holds[0])).toBe('open');
    expect(await billing.reaper.reapExpired(10)).toBe(1);
  });
});
