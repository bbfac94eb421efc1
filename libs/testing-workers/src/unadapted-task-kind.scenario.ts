import { HoldService } from '@gateway/billing';
import type { Environment } from '@gateway/config';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { enqueueTaskStep, QUEUE_NAMES, taskStepJobId, TaskStore, type TaskKind } from '@gateway/tasks';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BALANCE_MICROS = 10_000_000n;
const HOLD_MICROS = 700_000n;

export interface UnadaptedTaskKindScenario {
  /** The Jest suite's name, e.g. `worker-image (Postgres, Redis)`. */
  suiteName: string;
  /** The worker app's root module, configured from `env` (a fresh database, a private Redis prefix). */
  createModule: (env: Environment) => DynamicModule;
  /** The queue the app consumes, as its key in QUEUE_NAMES (it names the test). */
  queue: keyof typeof QUEUE_NAMES;
  /** The task kind whose step jobs run on that queue. */
  kind: TaskKind;
  /** A channel type with no asynchronous adapter registered. */
  channelType: string;
  model: string;
  /** The route the hold was taken for. */
  route: string;
  /** Start of the Redis key prefix, so that concurrent test files never share a queue. */
  redisPrefix: string;
}

/**
 * Registers the suite every task worker app shares while none of its channel types has an asynchronous
 * adapter: the app consumes a step job of its queue, fails the task with "no asynchronous adapter for
 * channel type X" and releases the task's hold in full (no ledger row, balance and held unchanged).
 */
export function describeUnadaptedTaskKind(scenario: UnadaptedTaskKindScenario): void {
  const { suiteName, createModule, queue: queueKey, kind, channelType, model, route, redisPrefix } = scenario;
  const accountId = `acct_${kind}`;
  const keyId = `key_${kind}`;
  const channelId = `chan_${channelType}`;
  const requestId = `req_${kind}`;

  describe(suiteName, () => {
    let database: TestDatabase;
    let pool: Pool;
    let prisma: PrismaClient;
    let app: INestApplicationContext;
    let queue: Queue;

    beforeAll(async () => {
      database = await createTestDatabase();
      pool = createPgPool(database.url, 4);
      prisma = createPrismaClient(pool);
      const prefix = `${redisPrefix}-${randomBytes(4).toString('hex')}`;
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL,
        REDIS_PREFIX: prefix,
        ADMIN_TOKEN: 'test-admin-token-0123456789',
        MASTER_KEY: '12'.repeat(32),
        LOG_LEVEL: 'silent',
      };
      app = await NestFactory.createApplicationContext(createModule(env), { logger: false });
      queue = new Queue(QUEUE_NAMES[queueKey], { connection: { url: REDIS_URL }, prefix });
    });

    afterAll(async () => {
      await app.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await prisma.$disconnect();
      await pool.end();
      await database.drop();
    });

    it(`consumes ${queueKey} and, with no asynchronous adapter registered yet, fails the task and releases its hold`, async () => {
      await prisma.account.create({ data: { id: accountId, name: kind, balance: BALANCE_MICROS } });
      await prisma.channel.create({
        data: {
          id: channelId,
          type: channelType,
          name: `${channelType} channel`,
          baseUrl: 'http://127.0.0.1:9',
          secretCiphertext: 'unused',
          secretKeyVersion: 1,
          secretTail: 'abcd',
        },
      });
      await new HoldService(pool).take({
        requestId,
        accountId,
        keyId,
        model,
        route,
        amount: HOLD_MICROS,
        ttlMs: 3_600_000,
      });
      const store = new TaskStore(prisma, pool);
      const { task } = await store.create({
        id: `${kind}_1`,
        kind,
        keyId,
        accountId,
        model,
        channelId,
        request: { prompt: 'a red kite' },
        holdRequestId: requestId,
        deadlineAt: new Date(Date.now() + 600_000),
      });

      await enqueueTaskStep(queue, task.id);
      // The job ends only once its step returned, after the release: the status alone turns `failed`
      // just before the ledger write.
      await waitFor(async () => (await queue.getJob(taskStepJobId(task.id)))?.finishedOn !== undefined);
      expect(await (await queue.getJob(taskStepJobId(task.id)))?.getState()).toBe('completed');

      expect(await store.findById(task.id)).toMatchObject({
        status: 'failed',
        failureReason: `no asynchronous adapter for channel type ${channelType}`,
      });
      // Released in full: no money moved, so no ledger row; the hold is settled.
      expect(await prisma.ledgerEntry.count({ where: { requestId } })).toBe(0);
      expect((await prisma.hold.findUniqueOrThrow({ where: { requestId } })).status).toBe('settled');
      expect(await prisma.account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
        balance: BALANCE_MICROS,
        held: 0n,
      });
    });
  });
}
