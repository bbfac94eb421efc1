import {
  type BillingDatabase,
  nextRequestId,
  openBillingDatabase,
} from '../testing/billing-database.fixture';
import {
  accountScope,
  GovernanceReservations,
  keyScope,
  type ReservationInput,
} from './governance-reservations';

const DAY = Date.parse('2026-11-29T00:00:00Z');
const LATER = Date.parse('2026-12-01T00:00:00Z');

describe('GovernanceReservations (Postgres)', () => {
  let billing: BillingDatabase;
  let reservations: GovernanceReservations;
  let counter = 0;

  beforeAll(async () => {
    billing = await openBillingDatabase(20);
    reservations = new GovernanceReservations(billing.pool);
  });
  afterAll(() => billing?.close());

  function ids() {
    counter += 1;
    return { keyId: `key_g${counter}`, accountId: `acct_g${counter}` };
  }

  function input(
    owner: { keyId: string; accountId: string },
    extra: Partial<ReservationInput>,
  ): ReservationInput {
    return { requestId: nextRequestId(), ...owner, amountMicros: 1000n, expiresAt: LATER, ...extra };
  }

  it('admits exactly what a key budget covers out of 50 concurrent requests, and refuses the rest', async () => {
    const owner = ids();
    const budget = { micros: 10_000n, periodStart: DAY };
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => reservations.reserve(input(owner, { keyBudget: budget }))),
    );
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(10);
    expect(verdicts.filter((verdict) => verdict === 'budget:key')).toHaveLength(40);
    expect(await reservations.budgetFigures(keyScope(owner.keyId), DAY)).toEqual({
      spentMicros: 0n,
      reservedMicros: 10_000n,
    });
  });

  it('turns a reservation into the captured amount once, even beyond the estimate', async () => {
    const owner = ids();
    const budget = { micros: 5_000n, periodStart: DAY };
    const first = input(owner, { keyBudget: budget, amountMicros: 2_000n });
    expect(await reservations.reserve(first)).toBeNull();
    expect(await reservations.settle(first.requestId, 3_500n)).toBe(true);
    expect(await reservations.settle(first.requestId, 3_500n)).toBe(false);
    expect(await reservations.budgetFigures(keyScope(owner.keyId), DAY)).toEqual({
      spentMicros: 3_500n,
      reservedMicros: 0n,
    });
    // 3,500 spent: a 2,000 request no longer fits in 5,000, a 1,500 one does.
    expect(await reservations.reserve(input(owner, { keyBudget: budget, amountMicros: 2_000n }))).toBe(
      'budget:key',
    );
    expect(await reservations.reserve(input(owner, { keyBudget: budget, amountMicros: 1_500n }))).toBeNull();
  });

  it('starts a new period with nothing spent', async () => {
    const owner = ids();
    const today = input(owner, { keyBudget: { micros: 1_000n, periodStart: DAY } });
    expect(await reservations.reserve(today)).toBeNull();
    await reservations.settle(today.requestId, 1_000n);
    expect(
      await reservations.reserve(input(owner, { keyBudget: { micros: 1_000n, periodStart: DAY } })),
    ).toBe('budget:key');
    const tomorrow = DAY + 86_400_000;
    expect(
      await reservations.reserve(input(owner, { keyBudget: { micros: 1_000n, periodStart: tomorrow } })),
    ).toBeNull();
  });

  it('applies the account budget across its keys, and takes nothing when one scope refuses', async () => {
    const account = `acct_shared${counter}`;
    const accountBudget = { micros: 3_000n, periodStart: DAY };
    const keyBudget = { micros: 100_000n, periodStart: DAY };
    const keyA = { keyId: `key_a${counter}`, accountId: account };
    const keyB = { keyId: `key_b${counter}`, accountId: account };
    expect(
      await reservations.reserve(input(keyA, { accountBudget, keyBudget, amountMicros: 2_000n })),
    ).toBeNull();
    expect(await reservations.reserve(input(keyB, { accountBudget, keyBudget, amountMicros: 2_000n }))).toBe(
      'budget:account',
    );
    // The key budget's row was not charged by the refused request.
    expect((await reservations.budgetFigures(keyScope(keyB.keyId), DAY)).reservedMicros).toBe(0n);
    expect((await reservations.budgetFigures(accountScope(account), DAY)).reservedMicros).toBe(2_000n);
  });

  it('counts outstanding tasks exactly under a burst, and frees a slot when the task settles', async () => {
    const owner = ids();
    const verdicts = await Promise.all(
      Array.from({ length: 20 }, () => reservations.reserve(input(owner, { keyTasks: 3, accountTasks: 5 }))),
    );
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(3);
    expect(verdicts.filter((verdict) => verdict === 'tasks:key')).toHaveLength(17);
    expect(await reservations.outstandingTasks(keyScope(owner.keyId))).toBe(3);
    expect(await reservations.outstandingTasks(accountScope(owner.accountId))).toBe(3);
  });

  it('settles a task reservation by the task hold settlement, whichever side comes second', async () => {
    const accountId = await billing.fundedAccount(1_000_000n);
    const owner = { keyId: `key_t${counter}`, accountId };
    const budget = { micros: 100_000n, periodStart: DAY };

    // The worker settles first: the gateway's hand-over finds the log and settles.
    const fast = input(owner, { keyBudget: budget, keyTasks: 5, amountMicros: 10_000n });
    expect(await reservations.reserve(fast)).toBeNull();
    const fastTask = `task_fast${counter}`;
    await settleTaskHold(accountId, fastTask, 7_000n);
    // Its worker ran before the link: nothing to settle yet.
    expect(await reservations.taskSettled(fastTask, fastTask)).toBe(false);
    await reservations.handOverToTask(fast.requestId, fastTask, LATER);

    // The gateway hands over first: the worker's settleTask settles.
    const slow = input(owner, { keyBudget: budget, keyTasks: 5, amountMicros: 10_000n });
    expect(await reservations.reserve(slow)).toBeNull();
    const slowTask = `task_slow${counter}`;
    await reservations.handOverToTask(slow.requestId, slowTask, LATER);
    expect(await reservations.outstandingTasks(keyScope(owner.keyId))).toBe(1);
    await settleTaskHold(accountId, slowTask, 9_000n);
    expect(await reservations.taskSettled(slowTask, slowTask)).toBe(true);
    expect(await reservations.taskSettled(slowTask, slowTask)).toBe(false);
    expect(await reservations.settleTask(slowTask)).toBe(false);

    expect(await reservations.budgetFigures(keyScope(owner.keyId), DAY)).toEqual({
      spentMicros: 16_000n,
      reservedMicros: 0n,
    });
    expect(await reservations.outstandingTasks(keyScope(owner.keyId))).toBe(0);
    const costs = await billing.prisma.task.findMany({
      where: { id: { in: [fastTask, slowTask] } },
      select: { id: true, costMicros: true },
      orderBy: { id: 'asc' },
    });
    expect(costs).toEqual([
      { id: fastTask, costMicros: 7_000n },
      { id: slowTask, costMicros: 9_000n },
    ]);
  });

  it('sweeps reservations that expired unsettled, releasing what they reserved', async () => {
    const owner = ids();
    const stale = input(owner, { keyBudget: { micros: 1_000n, periodStart: DAY }, expiresAt: DAY + 1000 });
    expect(await reservations.reserve(stale)).toBeNull();
    expect(await reservations.sweepExpired(DAY + 2000)).toBeGreaterThanOrEqual(1);
    expect(await reservations.budgetFigures(keyScope(owner.keyId), DAY)).toEqual({
      spentMicros: 0n,
      reservedMicros: 0n,
    });
  });

  async function settleTaskHold(accountId: string, taskId: string, capture: bigint): Promise<void> {
    await billing.prisma.task.upsert({
      where: { id: taskId },
      update: {},
      create: {
        id: taskId,
        kind: 'video',
        keyId: 'key_t',
        accountId,
        model: 'delta-2',
        request: {},
        holdRequestId: taskId,
        status: 'completed',
        deadlineAt: new Date(LATER),
      },
    });
    const taken = await billing.holds.take({
      requestId: taskId,
      accountId,
      keyId: 'key_t',
      model: 'delta-2',
      route: '/v1/videos',
      amount: 10_000n,
      ttlMs: 60_000,
    });
    expect(taken).toEqual({ ok: true });
    await billing.settlements.settleRowHolds([
      {
        requestId: taskId,
        captureMicros: capture,
        log: {
          route: '/v1/videos',
          httpStatus: 200,
          endReason: 'completed',
          latencyMs: 1,
          inputTokens: 0,
          outputTokens: 0,
          attempts: 1,
        },
      },
    ]);
  }
});
