import {
  createTestDatabase,
  deleteKeysUnderPrefix,
  killClientsNamedUnder,
  waitFor,
  type TestDatabase,
} from '@gateway/testing';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { QUEUE_NAMES } from '../queue-names';
import { OVERDUE_SWEEP_JOB_NAME } from './task-step.consumer';
import { TaskStepWorkerModule } from './task-step-worker.module';
import { WorkerRuntimeModule } from './worker-runtime.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SWEEP_INTERVAL_MS = 45_000;

@Module({})
class TaskWorkerTestModule {}

describe('a task worker after Redis lost its data (Postgres, Redis)', () => {
  let database: TestDatabase;
  let prefix: string;
  let app: INestApplicationContext;
  let redis: Redis;
  let queue: Queue;

  beforeAll(async () => {
    database = await createTestDatabase();
    prefix = `test-task-loss-${randomBytes(4).toString('hex')}`;
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: '34'.repeat(32),
      LOG_LEVEL: 'silent',
    };
    app = await NestFactory.createApplicationContext(
      {
        module: TaskWorkerTestModule,
        imports: [
          WorkerRuntimeModule.forRoot({ serviceName: 'worker-test', env }),
          TaskStepWorkerModule.forQueue({
            queue: QUEUE_NAMES.videoTasks,
            concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
            defaultConcurrency: 1,
            overdueSweepIntervalMs: SWEEP_INTERVAL_MS,
          }),
        ],
      },
      { logger: false },
    );
    redis = new Redis(REDIS_URL);
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
  });

  afterAll(async () => {
    await app.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await deleteKeysUnderPrefix(redis, prefix);
    await redis.quit();
    await database.drop();
  });

  it('recreates the overdue sweep scheduler when its connection is ready again, without a restart', async () => {
    expect((await queue.getJobScheduler(OVERDUE_SWEEP_JOB_NAME))?.every).toBe(SWEEP_INTERVAL_MS);

    expect(await deleteKeysUnderPrefix(redis, prefix)).toBeGreaterThan(0);
    expect(await queue.getJobScheduler(OVERDUE_SWEEP_JOB_NAME)).toBeUndefined();

    expect(await killClientsNamedUnder(redis, prefix)).toBeGreaterThan(0);
    await waitFor(
      async () => (await queue.getJobScheduler(OVERDUE_SWEEP_JOB_NAME))?.every === SWEEP_INTERVAL_MS,
    );
    await waitFor(async () => (await queue.getDelayed()).some((job) => job.name === OVERDUE_SWEEP_JOB_NAME));
  });
});
