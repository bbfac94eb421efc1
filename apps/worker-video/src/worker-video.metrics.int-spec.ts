import { HoldService } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import type {
  AdapterContext,
  JsonHandle,
  TaskAdapter,
  TaskPollResult,
  TaskSubmission,
} from '@gateway/providers-core';
import { enqueueTaskStep, QUEUE_NAMES, taskStepJobId, TaskStore } from '@gateway/tasks';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { Pool } from 'pg';
import { WorkerVideoModule } from './worker-video.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOLD_MICROS = 8_000_000n;

/** An upstream that answers polls from a script: running twice, then done. */
class ScriptedVideoAdapter implements TaskAdapter {
  readonly script: TaskPollResult[] = [
    { state: 'pending', progress: 30 },
    { state: 'pending', progress: 70 },
    { state: 'completed', outputs: [{ url: 'http://upstream.test/boat.mp4' }], warnings: [] },
  ];

  async submit(): Promise<TaskSubmission> {
    return { handle: { upstreamTaskId: 'gamma-1' } };
  }

  async poll(_handle: JsonHandle): Promise<TaskPollResult> {
    return this.script.shift() ?? { state: 'pending' };
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A number of one series in Prometheus' text format; undefined when the series is absent. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('worker-video metrics (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let queue: Queue;
  let app: INestApplicationContext | undefined;
  const prefix = `test-wvmetrics-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
    await prisma.account.create({ data: { id: 'acct_video', name: 'video', balance: 100_000_000n } });
    await prisma.channel.create({
      data: {
        id: 'chan_gamma',
        type: 'gamma',
        name: 'gamma video',
        baseUrl: 'http://127.0.0.1:9',
        secretCiphertext: 'unused',
        secretKeyVersion: 1,
        secretTail: 'abcd',
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  it('counts the task’s transitions, its completion lag and its spend on /metrics', async () => {
    const port = await freePort();
    const context = {
      channel: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'unused' }, settings: {} },
    } as AdapterContext;
    app = await NestFactory.createApplicationContext(
      WorkerVideoModule.forRoot({
        env: {
          DATABASE_URL: database.url,
          REDIS_URL,
          REDIS_PREFIX: prefix,
          ADMIN_API_ENABLED: 'false',
          MASTER_KEY: 'ef'.repeat(32),
          LOG_LEVEL: 'silent',
          SHUTDOWN_GRACE_MS: '200',
          WORKER_METRICS_PORT: String(port),
          WORKER_METRICS_HOST: '127.0.0.1',
        },
        adapters: new Map([['gamma', new ScriptedVideoAdapter()]]),
        connectChannel: async () => context,
        timing: { minPollDelayMs: 50, maxPollDelayMs: 100, submissionTimeoutMs: 10_000 },
      }),
      { logger: false },
    );
    const store = new TaskStore(prisma, pool);
    await new HoldService(pool).take({
      requestId: 'req_video_1',
      accountId: 'acct_video',
      keyId: 'key_video',
      model: 'gamma-2',
      route: '/v1/videos',
      amount: HOLD_MICROS,
      ttlMs: 3_600_000,
    });
    const { task } = await store.create({
      id: 'video_1',
      kind: 'video',
      keyId: 'key_video',
      accountId: 'acct_video',
      model: 'gamma-2',
      channelId: 'chan_gamma',
      request: { prompt: 'a paper boat', seconds: 4 },
      holdRequestId: 'req_video_1',
      deadlineAt: new Date(Date.now() + 600_000),
    });
    await enqueueTaskStep(queue, task.id);
    await waitFor(async () => (await queue.getJob(taskStepJobId(task.id)))?.finishedOn !== undefined, 20_000);

    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(seriesValue(text, 'gateway_task_transitions_total{kind="video",status="processing"}')).toBe(1);
    expect(seriesValue(text, 'gateway_task_transitions_total{kind="video",status="completed"}')).toBe(1);
    // Measured from the second pending poll to the completion: about one poll interval (50–100 ms).
    expect(seriesValue(text, 'gateway_task_completion_lag_seconds_count{kind="video"}')).toBe(1);
    expect(seriesValue(text, 'gateway_task_completion_lag_seconds_sum{kind="video"}')).toBeGreaterThan(0);
    expect(seriesValue(text, 'gateway_spend_micros_total{model="gamma-2"}')).toBe(Number(HOLD_MICROS));
    expect(seriesValue(text, 'gateway_pg_pool_connections{pool="worker",state="total"}')).toBeGreaterThan(0);
  });
});
