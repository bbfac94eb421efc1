import { HoldService } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { QUEUE_NAMES, textSettlementJobId } from '@gateway/tasks';
import { enqueueTextSettlement } from '@gateway/testing-workers';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { WorkerTextModule } from './worker-text.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('worker-text graceful shutdown (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let queue: Queue;
  let maintenanceQueue: Queue;
  let prefix: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    await prisma.account.create({ data: { id: 'acct_shutdown', name: 'shutdown', balance: 10_000_000n } });
    prefix = `test-wtext-stop-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.textSettlement, { connection: { url: REDIS_URL }, prefix });
    maintenanceQueue = new Queue(QUEUE_NAMES.textMaintenance, { connection: { url: REDIS_URL }, prefix });
  });

  afterAll(async () => {
    for (const each of [queue, maintenanceQueue]) {
      await each.obliterate({ force: true });
      await each.close();
    }
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  it('finishes the settlement in progress before close resolves', async () => {
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: 'cd'.repeat(32),
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '10000',
    };
    const app = await NestFactory.createApplicationContext(WorkerTextModule.forRoot({ env }), {
      logger: false,
    });
    const requestId = 'req_in_flight';
    await new HoldService(pool).take({
      requestId,
      accountId: 'acct_shutdown',
      keyId: 'key_shutdown',
      model: 'kappa-pro',
      route: '/v1/chat/completions',
      amount: 1_000_000n,
      ttlMs: 3_600_000,
    });

    // Holding the hold's row lock keeps the worker's settlement statement waiting: a job in flight.
    const blocker = await pool.connect();
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM holds WHERE request_id = $1 FOR UPDATE', [requestId]);
    await enqueueTextSettlement(queue, {
      requestId,
      captureMicros: 400_000n,
      log: {
        route: '/v1/chat/completions',
        httpStatus: 200,
        endReason: 'completed',
        latencyMs: 100,
        inputTokens: 10,
        outputTokens: 20,
        attempts: 1,
      },
    });
    const job = await queue.getJob(textSettlementJobId(requestId));
    await waitFor(async () => (await job?.getState()) === 'active');
    await new Promise((resolve) => setTimeout(resolve, 200));

    let closed = false;
    const closing = app.close().then(() => {
      closed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(closed).toBe(false);

    await blocker.query('COMMIT');
    blocker.release();
    await closing;

    expect(await job?.getState()).toBe('completed');
    expect((await prisma.hold.findUniqueOrThrow({ where: { requestId } })).status).toBe('settled');
    expect(await prisma.requestLog.count({ where: { requestId } })).toBe(1);
  });
});
