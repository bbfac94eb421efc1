import { GovernanceReservations, HoldService, SettlementService } from '@gateway/billing';
import type { PrismaClient, Task } from '@gateway/db';
import type { Pool } from 'pg';
import { toVideoTaskPriceSnapshot } from './task-price-snapshot';
import { TaskSettlementService } from './task-settlement.service';
import type { TaskOutcome } from './task-step.types';
import { TaskStore } from './task-store';
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';

const ACCOUNT = 'acct_settle_batches';
const BALANCE = 1_000_000_000n;
const HOLD_MICROS = 100_000n;
/** 1,000 per call + 10,000 per second: a task that produced s seconds captures 1,000 + 10,000 s. */
const PRICE = toVideoTaskPriceSnapshot({
  resolution: '720p',
  perCallMicros: 1_000n,
  perSecondMicros: 10_000n,
  heldSeconds: 4,
});

describe('task settlements settled together (TaskSettlementService, Postgres)', () => {
  let taskDatabase: TaskDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let store: TaskStore;
  let holds: HoldService;
  let sequence = 0;

  beforeAll(async () => {
    taskDatabase = await openTaskDatabase(4);
    ({ pool, prisma, store, holds } = taskDatabase);
    await prisma.account.create({ data: { id: ACCOUNT, name: 'settle batches', balance: BALANCE } });
  });

  afterAll(async () => {
    await taskDatabase.close();
  });

  /**
   * The service over the real settlement, each settleRowHolds call counted; `refuses` makes the
   * settlement of that hold fail whatever batch it travels in (a value Postgres refuses).
   */
  function service(refuses?: string): { settlement: TaskSettlementService; batches: string[][] } {
    const real = new SettlementService(pool);
    const batches: string[][] = [];
    const settlement = new TaskSettlementService(
      {
        settleRowHolds: async (settlements) => {
          batches.push(settlements.map((item) => item.requestId));
          if (refuses && settlements.some((item) => item.requestId === refuses)) {
            throw Object.assign(new Error('value out of range'), { code: '22003' });
          }
          return real.settleRowHolds(settlements);
        },
      },
      prisma,
      new GovernanceReservations(pool),
    );
    return { settlement, batches };
  }

  /** A completed video task with its hold, as the terminal transition leaves it (`seconds` produced). */
  async function completedTask(seconds: number, withHold = true): Promise<Task> {
    sequence += 1;
    const id = `task_settle_${sequence}`;
    if (withHold) {
      const taken = await holds.take({
        requestId: id,
        accountId: ACCOUNT,
        keyId: 'key_settle',
        model: 'delta-2',
        route: '/v1/videos',
        amount: HOLD_MICROS,
        ttlMs: 3_600_000,
      });
      expect(taken.ok).toBe(true);
    }
    await store.create({
      id,
      kind: 'video',
      keyId: 'key_settle',
      accountId: ACCOUNT,
      model: 'delta-2',
      channelId: 'chan_settle',
      request: { prompt: 'a river', seconds: 4 },
      ...(withHold ? { holdRequestId: id } : {}),
      priceSnapshot: PRICE,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    await store.transition(id, 'queued', 'processing');
    await store.transition(id, 'processing', 'completed', { progress: 100, mediaSeconds: seconds });
    const task = await store.findById(id);
    if (!task) throw new Error(`task ${id} is gone`);
    return task;
  }

  const completed: TaskOutcome = {
    state: 'completed',
    outputs: [{ url: 'https://u.test/v.mp4' }],
    warnings: [],
  };

  async function capturesOf(requestId: string): Promise<bigint[]> {
    const rows = await prisma.ledgerEntry.findMany({ where: { requestId, kind: 'capture' } });
    return rows.map((row) => row.amount);
  }

  async function account(): Promise<{ balance: bigint; held: bigint }> {
    const row = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT } });
    return { balance: row.balance, held: row.held };
  }

  it('settles the tasks that end together in one settlement statement, each capturing what it produced, once', async () => {
    const tasks = await Promise.all(Array.from({ length: 20 }, (_, index) => completedTask((index % 5) + 1)));
    const before = await account();
    const { settlement, batches } = service();

    await Promise.all(tasks.map((task) => settlement.settle(task, completed)));
    // The first goes alone (nothing in flight), the other 19 together.
    expect(batches.map((batch) => batch.length)).toEqual([1, 19]);

    let captured = 0n;
    for (const [index, task] of tasks.entries()) {
      const expected = 1_000n + 10_000n * BigInt((index % 5) + 1);
      captured += expected;
      expect(await capturesOf(task.id)).toEqual([expected]);
      const log = await prisma.requestLog.findUniqueOrThrow({ where: { requestId: task.id } });
      expect(log).toMatchObject({
        endReason: 'completed',
        mediaSeconds: (index % 5) + 1,
        costMicros: expected,
      });
      // task_settlement_recorded ran for each, after its hold's settlement committed.
      expect((await store.findById(task.id))?.costMicros).toBe(expected);
    }
    expect(await account()).toEqual({
      balance: before.balance - captured,
      held: before.held - HOLD_MICROS * BigInt(tasks.length),
    });

    // Settled again (a re-run after a crash, two workers racing): nothing moves a second time.
    await Promise.all(
      tasks.flatMap((task) => [settlement.settle(task, completed), settlement.settle(task, completed)]),
    );
    for (const task of tasks) expect(await capturesOf(task.id)).toHaveLength(1);
    expect(await account()).toEqual({
      balance: before.balance - captured,
      held: before.held - HOLD_MICROS * BigInt(tasks.length),
    });
  });

  it('releases a failed task in full and records a task without a hold, in the same batch', async () => {
    const [first, failed, holdless] = await Promise.all([
      completedTask(2),
      completedTask(3),
      completedTask(1, false),
    ]);
    const { settlement } = service();
    const failure: TaskOutcome = {
      state: 'failed',
      failure: { kind: 'content_policy', message: 'refused', retryable: false },
    };
    await Promise.all([
      settlement.settle(first, completed),
      settlement.settle(failed, failure),
      settlement.settle(holdless, completed),
    ]);
    expect(await capturesOf(first.id)).toEqual([21_000n]);
    expect(await capturesOf(failed.id)).toEqual([]);
    expect(await prisma.hold.findUniqueOrThrow({ where: { requestId: failed.id } })).toMatchObject({
      status: 'settled',
    });
    expect(await prisma.requestLog.findUniqueOrThrow({ where: { requestId: failed.id } })).toMatchObject({
      endReason: 'upstream_error',
      costMicros: 0n,
    });
    expect((await store.findById(holdless.id))?.costMicros).toBe(0n);
  });

  it('fails a settlement Postgres refuses alone: the others of its batch are settled', async () => {
    const tasks = await Promise.all(Array.from({ length: 5 }, () => completedTask(1)));
    const refused = tasks[3];
    const { settlement, batches } = service(refused.id);
    const results = await Promise.allSettled(tasks.map((task) => settlement.settle(task, completed)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    // The batch of four failed, then went one settlement at a time.
    expect(batches.map((batch) => batch.length)).toEqual([1, 4, 1, 1, 1, 1]);
    for (const task of tasks) {
      expect(await capturesOf(task.id)).toEqual(task === refused ? [] : [11_000n]);
    }
    expect(await prisma.hold.findUniqueOrThrow({ where: { requestId: refused.id } })).toMatchObject({
      status: 'open',
    });
  });
});
