import { QUEUE_NAMES } from '@gateway/tasks';
import {
  createTestDatabase,
  deleteKeysUnderPrefix,
  killClientsNamedUnder,
  waitFor,
  type TestDatabase,
} from '@gateway/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { HOLD_REAPER_SCHEDULER_ID } from './hold-reaper.processor';
import { WorkerTextModule } from './worker-text.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('worker-text after Redis lost its data (Postgres, Redis)', () => {
  let database: TestDatabase;
  let prefix: string;
  let app: INestApplicationContext;
  let redis: Redis;
  let maintenanceQueue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = `test-wtext-loss-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: 'ef'.repeat(32),
      LOG_LEVEL: 'silent',
    };
    app = await NestFactory.createApplicationContext(WorkerTextModule.forRoot({ env }), { logger: false });
    redis = new Redis(REDIS_URL);
    maintenanceQueue = new Queue(QUEUE_NAMES.textMaintenance, { connection: { url: REDIS_URL }, prefix });
  });

  afterAll(async () => {
    await app.close();
    await maintenanceQueue.obliterate({ force: true });
    await maintenanceQueue.close();
    await deleteKeysUnderPrefix(redis, prefix);
    await redis.quit();
    await database.drop();
  });

  it('recreates the hold reaper scheduler when its connection is ready again, without a restart', async () => {
    expect((await maintenanceQueue.getJobScheduler(HOLD_REAPER_SCHEDULER_ID))?.every).toBe(30_000);

    expect(await deleteKeysUnderPrefix(redis, prefix)).toBeGreaterThan(0);
    expect(await maintenanceQueue.getJobScheduler(HOLD_REAPER_SCHEDULER_ID)).toBeUndefined();
    expect(await maintenanceQueue.getDelayedCount()).toBe(0);

    // A restarting Redis drops every connection; the worker's reconnect and become ready again.
    expect(await killClientsNamedUnder(redis, prefix)).toBeGreaterThan(0);
    await waitFor(
      async () => (await maintenanceQueue.getJobScheduler(HOLD_REAPER_SCHEDULER_ID))?.every === 30_000,
    );
    // The scheduler's next reaping job is due again.
    await waitFor(async () =>
      (await maintenanceQueue.getDelayed()).some((job) => job.name === HOLD_REAPER_SCHEDULER_ID),
    );
  });
});
