import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { deleteKeysUnderPrefix, killClientsNamedUnder } from './redis-faults';
import { createTestDatabase } from './test-database';
import { waitFor } from './wait-for';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface WorkerOnFreshStores {
  app: INestApplicationContext;
  /** The worker's Redis key prefix, which names its connections too. */
  prefix: string;
  /** A connection of the test's own, to cause faults under the prefix. */
  redis: Redis;
  /** The queue whose job schedulers the test inspects, on the worker's prefix. */
  queue: Queue;
  close(): Promise<void>;
}

/**
 * Starts a worker's application context on a fresh database and its own Redis prefix, with a handle
 * on one of its queues; `module` builds the worker's root module from the environment it reads.
 */
export async function startWorkerOnFreshStores(options: {
  prefixLabel: string;
  queueName: string;
  module: (env: Record<string, string>) => DynamicModule;
}): Promise<WorkerOnFreshStores> {
  const database = await createTestDatabase();
  const prefix = `test-${options.prefixLabel}-${randomBytes(4).toString('hex')}`;
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN: 'test-admin-token-0123456789',
    MASTER_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  };
  const app = await NestFactory.createApplicationContext(options.module(env), { logger: false });
  const redis = new Redis(REDIS_URL);
  // Loaded here, not with the module: every test file that imports @gateway/testing would load
  // BullMQ (about 0.1 s of CPU) for the few worker tests that call this.
  const bullmq = await import('bullmq');
  const queue = new bullmq.Queue(options.queueName, { connection: { url: REDIS_URL }, prefix });
  return {
    app,
    prefix,
    redis,
    queue,
    close: async () => {
      await app.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await deleteKeysUnderPrefix(redis, prefix);
      await redis.quit();
      await database.drop();
    },
  };
}

/**
 * What a Redis restart that lost its data does to a worker's repeating job: the scheduler is gone
 * with the keys, and must come back (with its next job due) once the worker's connections are ready
 * again, without a restart of the worker.
 */
export async function expectSchedulerRecreatedAfterRedisLoss(
  worker: WorkerOnFreshStores,
  schedulerId: string,
  everyMs: number,
): Promise<void> {
  const { queue, redis, prefix } = worker;
  expect((await queue.getJobScheduler(schedulerId))?.every).toBe(everyMs);

  expect(await deleteKeysUnderPrefix(redis, prefix)).toBeGreaterThan(0);
  expect(await queue.getJobScheduler(schedulerId)).toBeUndefined();
  // Only this scheduler's job: a job of the worker in flight meanwhile may already have added its next.
  expect((await queue.getDelayed()).some((job) => job.name === schedulerId)).toBe(false);

  // A restarting Redis drops every connection; the worker's reconnect and become ready again.
  expect(await killClientsNamedUnder(redis, prefix)).toBeGreaterThan(0);
  await waitFor(async () => (await queue.getJobScheduler(schedulerId))?.every === everyMs);
  // The scheduler's next job is due again.
  await waitFor(async () => (await queue.getDelayed()).some((job) => job.name === schedulerId));
}
