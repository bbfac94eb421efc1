import { HoldLeases, HoldService, type SettlementInput } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { QUEUE_NAMES, textSettlementJobId, toSettlementJob } from '@gateway/tasks';
import { enqueueTextSettlement } from '@gateway/testing-workers';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue, type Job } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { HOLD_REAPER_SCHEDULER_ID } from './hold-reaper.processor';
import { WorkerTextModule } from './worker-text.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACCOUNT_ID = 'acct_text';

describe('worker-text (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let holds: HoldService;
  let app: INestApplicationContext;
  let settlementQueue: Queue;
  let maintenanceQueue: Queue;
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    holds = new HoldService(pool);
    await prisma.account.create({ data: { id: ACCOUNT_ID, name: 'text', balance: 100_000_000n } });

    const prefix = `test-wtext-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: 'ab'.repeat(32),
      LOG_LEVEL: 'silent',
    };
    app = await NestFactory.createApplicationContext(WorkerTextModule.forRoot({ env }), { logger: false });
    const connection = { url: REDIS_URL };
    settlementQueue = new Queue(QUEUE_NAMES.textSettlement, { connection, prefix });
    maintenanceQueue = new Queue(QUEUE_NAMES.textMaintenance, { connection, prefix });
  });

  afterAll(async () => {
    await app.close();
    for (const queue of [settlementQueue, maintenanceQueue]) {
      await queue.obliterate({ force: true });
      await queue.close();
    }
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function heldRequest(amount: bigint, ttlMs = 3_600_000): Promise<string> {
    sequence += 1;
    const requestId = `req_text_${sequence}`;
    const taken = await holds.take({
      requestId,
      accountId: ACCOUNT_ID,
      keyId: 'key_text',
      model: 'kappa-pro',
      route: '/v1/chat/completions',
      amount,
      ttlMs,
    });
    expect(taken.ok).toBe(true);
    return requestId;
  }

  function settlementOf(requestId: string, captureMicros: bigint): SettlementInput {
    return {
      requestId,
      captureMicros,
      log: {
        route: '/v1/chat/completions',
        httpStatus: 200,
        endReason: 'completed',
        latencyMs: 640,
        inputTokens: 1_000,
        outputTokens: 250,
        attempts: 1,
        channelId: 'chan_kappa',
      },
    };
  }

  async function isSettled(requestId: string): Promise<boolean> {
    const hold = await prisma.hold.findUnique({ where: { requestId } });
    return hold?.status === 'settled';
  }

  async function ledgerKinds(requestId: string): Promise<Array<[string, bigint]>> {
    const rows = await prisma.ledgerEntry.findMany({ where: { requestId }, orderBy: { id: 'asc' } });
    return rows.map((row) => [row.kind, row.amount]);
  }

  it('settles a hold handed over through the queue and writes its request log', async () => {
    const before = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT_ID } });
    const requestId = await heldRequest(2_000_000n);

    await enqueueTextSettlement(settlementQueue, settlementOf(requestId, 1_234_567n));
    await waitFor(async () => (await prisma.requestLog.findUnique({ where: { requestId } })) !== null);

    expect(await isSettled(requestId)).toBe(true);
    expect(await prisma.requestLog.findUnique({ where: { requestId } })).toMatchObject({
      costMicros: 1_234_567n,
      endReason: 'completed',
      inputTokens: 1_000,
      outputTokens: 250,
      channelId: 'chan_kappa',
      keyId: 'key_text',
      accountId: ACCOUNT_ID,
    });
    expect(await ledgerKinds(requestId)).toEqual([['capture', 1_234_567n]]);
    const after = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT_ID } });
    expect(after.balance).toBe(before.balance - 1_234_567n);
    expect(after.held).toBe(before.held);
  });

  it('settles a hold taken from a lease, handed over through the queue, against that lease', async () => {
    const leases = new HoldLeases(pool, holds, {
      holdsAhead: 1,
      idleMs: 60_000,
      ttlMs: 60_000,
      owner: 'spec',
      onError: (error) => {
        throw error;
      },
    });
    sequence += 1;
    const requestId = `req_text_${sequence}`;
    const taken = await leases.take({
      requestId,
      accountId: ACCOUNT_ID,
      keyId: 'key_text',
      model: 'kappa-pro',
      route: '/v1/chat/completions',
      amount: 2_000_000n,
      ttlMs: 3_600_000,
    });
    if (!taken.ok || !taken.lease) throw new Error('expected a leased hold');
    const before = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT_ID } });

    leases.release(taken.lease, 500_000n);
    await enqueueTextSettlement(settlementQueue, {
      ...settlementOf(requestId, 500_000n),
      lease: taken.lease,
    });
    await waitFor(async () => (await prisma.requestLog.findUnique({ where: { requestId } })) !== null);

    expect(await prisma.hold.count({ where: { requestId } })).toBe(0);
    expect(await ledgerKinds(requestId)).toEqual([['capture', 500_000n]]);
    const after = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT_ID } });
    expect(after.balance).toBe(before.balance - 500_000n);
    expect(after.held).toBe(before.held - 500_000n);

    await leases.stop();
    const closed = await prisma.account.findUniqueOrThrow({ where: { id: ACCOUNT_ID } });
    expect(closed.held).toBe(before.held - 4_000_000n);
  });

  it('settles once however often the same settlement is enqueued', async () => {
    const requestId = await heldRequest(3_000_000n);
    const settlement = settlementOf(requestId, 1_000_000n);

    await Promise.all([
      enqueueTextSettlement(settlementQueue, settlement),
      enqueueTextSettlement(settlementQueue, settlement),
    ]);
    const job = await settlementQueue.getJob(textSettlementJobId(requestId));
    await waitFor(async () => (await job?.getState()) === 'completed');
    await enqueueTextSettlement(settlementQueue, settlement);
    // The same settlement arriving under another job id (another path) is applied by nobody twice.
    const stray = await settlementQueue.add('settle', toSettlementJob(settlement), {
      jobId: `stray-${requestId}`,
    });
    await waitFor(async () => (await stray.getState()) === 'completed');

    expect((await settlementQueue.getJob(textSettlementJobId(requestId)))?.returnvalue).toBe(true);
    expect((await settlementQueue.getJob(stray.id ?? ''))?.returnvalue).toBe(false);
    expect(await ledgerKinds(requestId)).toEqual([['capture', 1_000_000n]]);
    expect(await prisma.requestLog.count({ where: { requestId } })).toBe(1);
  });

  it('settles usage beyond the integer columns, storing the counts at their maximum', async () => {
    const requestId = await heldRequest(1_000_000n);
    const settlement = settlementOf(requestId, 500_000n);
    settlement.log.outputTokens = 3_000_000_000;
    settlement.log.latencyMs = 3_000_000_000;

    await enqueueTextSettlement(settlementQueue, settlement);
    await waitFor(() => isSettled(requestId));

    expect(await prisma.requestLog.findUnique({ where: { requestId } })).toMatchObject({
      outputTokens: 2_147_483_647,
      latencyMs: 2_147_483_647,
      costMicros: 500_000n,
    });
    expect(await ledgerKinds(requestId)).toEqual([['capture', 500_000n]]);
  });

  it('lets BullMQ retry a settlement whose write can succeed later, and settles it then', async () => {
    const requestId = await heldRequest(1_000_000n);
    // Gone for a while, as in a deployment whose migration has not run yet: a retry can get past it.
    await pool.query('ALTER TABLE request_logs RENAME TO request_logs_away');
    let job: Job | undefined;
    try {
      await enqueueTextSettlement(settlementQueue, settlementOf(requestId, 500_000n));
      job = await settlementQueue.getJob(textSettlementJobId(requestId));
      await waitFor(async () => (await settlementQueue.getJob(job?.id ?? ''))?.attemptsMade === 1);
      const retried = await settlementQueue.getJob(job?.id ?? '');
      expect(await retried?.getState()).toBe('delayed');
      expect(retried?.failedReason).toMatch(/request_logs/);
      expect(await isSettled(requestId)).toBe(false);
    } finally {
      await pool.query('ALTER TABLE request_logs_away RENAME TO request_logs');
    }

    await waitFor(async () => (await job?.getState()) === 'completed');
    expect(await isSettled(requestId)).toBe(true);
    expect(await ledgerKinds(requestId)).toEqual([['capture', 500_000n]]);
  });

  it('fails a settlement the database refuses at once, and the reaper releases its hold', async () => {
    // A constraint no sanitising satisfies stands for any value the database refuses.
    await pool.query(
      "ALTER TABLE request_logs ADD CONSTRAINT spec_refuses_channel CHECK (channel_id IS DISTINCT FROM 'chan_refused')",
    );
    const requestId = await heldRequest(1_000_000n);
    try {
      const settlement = settlementOf(requestId, 500_000n);
      settlement.log.channelId = 'chan_refused';
      await enqueueTextSettlement(settlementQueue, settlement);
      const job = (await settlementQueue.getJob(textSettlementJobId(requestId))) as Job;

      await waitFor(async () => (await job.getState()) === 'failed');
      const failed = await settlementQueue.getJob(job.id ?? '');
      expect(failed?.attemptsMade).toBe(1);
      expect(failed?.failedReason).toMatch(/refused by the database.*spec_refuses_channel/);
    } finally {
      await pool.query('ALTER TABLE request_logs DROP CONSTRAINT spec_refuses_channel');
    }

    // Its deadline passes, as it would after HOLD_TTL_MS.
    await pool.query(
      `UPDATE holds SET expires_at = now() AT TIME ZONE 'UTC' - interval '1 minute' WHERE request_id = $1`,
      [requestId],
    );
    await maintenanceQueue.add(HOLD_REAPER_SCHEDULER_ID, {});
    await waitFor(() => isSettled(requestId));
    expect(await ledgerKinds(requestId)).toEqual([]);
    expect((await prisma.requestLog.findUnique({ where: { requestId } }))?.endReason).toBe('abandoned');
  });

  it('fails a malformed settlement at once instead of retrying it', async () => {
    const job = await settlementQueue.add('settle', { requestId: 'req_bad', captureMicros: '1.5', log: {} });

    await waitFor(async () => (await job.getState()) === 'failed');
    const failed = await settlementQueue.getJob(job.id ?? '');
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.failedReason).toMatch(/captureMicros/);
  });

  it('reaps expired holds on a 30-second job scheduler', async () => {
    const scheduler = await maintenanceQueue.getJobScheduler(HOLD_REAPER_SCHEDULER_ID);
    expect(scheduler?.every).toBe(30_000);

    const requestId = await heldRequest(4_000_000n, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await maintenanceQueue.add(HOLD_REAPER_SCHEDULER_ID, {});

    await waitFor(() => isSettled(requestId));
    expect(await ledgerKinds(requestId)).toEqual([]);
    expect((await prisma.requestLog.findUnique({ where: { requestId } }))?.endReason).toBe('abandoned');
  });
});
