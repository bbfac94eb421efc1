import { HoldService } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { enqueueTaskStep, QUEUE_NAMES, taskStepJobId, TaskStore } from '@gateway/tasks';
import { createTestDatabase, type TestDatabase } from '@gateway/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { WorkerImageModule } from './worker-image.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('worker-image (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let app: INestApplicationContext;
  let queue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    const prefix = `test-wimage-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: '12'.repeat(32),
      LOG_LEVEL: 'silent',
    };
    app = await NestFactory.createApplicationContext(WorkerImageModule.forRoot({ env }), { logger: false });
    queue = new Queue(QUEUE_NAMES.imageTasks, { connection: { url: REDIS_URL }, prefix });
  });

  afterAll(async () => {
    await app.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  it('consumes imageTasks and, with no asynchronous adapter registered yet, fails the task and releases its hold', async () => {
    await prisma.account.create({ data: { id: 'acct_image', name: 'image', balance: 10_000_000n } });
    await prisma.channel.create({
      data: {
        id: 'chan_beta',
        type: 'beta',
        name: 'beta channel',
        baseUrl: 'http://127.0.0.1:9',
        secretCiphertext: 'unused',
        secretKeyVersion: 1,
        secretTail: 'abcd',
      },
    });
    await new HoldService(pool).take({
      requestId: 'req_image',
      accountId: 'acct_image',
      keyId: 'key_image',
      model: 'beta-1',
      route: '/bt/submit',
      amount: 700_000n,
      ttlMs: 3_600_000,
    });
    const store = new TaskStore(prisma);
    const { task } = await store.create({
      id: 'image_1',
      kind: 'image',
      keyId: 'key_image',
      accountId: 'acct_image',
      model: 'beta-1',
      channelId: 'chan_beta',
      request: { prompt: 'a red kite' },
      holdRequestId: 'req_image',
      deadlineAt: new Date(Date.now() + 600_000),
    });

    await enqueueTaskStep(queue, task.id);
    // The job ends only once its step returned, after the release: the status alone turns `failed`
    // just before the ledger write.
    await waitFor(async () => (await queue.getJob(taskStepJobId(task.id)))?.finishedOn !== undefined);
    expect(await (await queue.getJob(taskStepJobId(task.id)))?.getState()).toBe('completed');

    expect(await store.findById(task.id)).toMatchObject({
      status: 'failed',
      failureReason: 'no asynchronous adapter for channel type beta',
    });
    // Released in full: no money moved, so no ledger row; the hold is settled.
    expect(await prisma.ledgerEntry.count({ where: { requestId: 'req_image' } })).toBe(0);
    expect((await prisma.hold.findUniqueOrThrow({ where: { requestId: 'req_image' } })).status).toBe(
      'settled',
    );
    expect(await prisma.account.findUniqueOrThrow({ where: { id: 'acct_image' } })).toMatchObject({
      balance: 10_000_000n,
      held: 0n,
    });
  });
});
