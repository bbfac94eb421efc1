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
import { OVERDUE_SWEEP_JOB_NAME, STRANDED_SWEEP_JOB_NAME } from '@gateway/tasks/worker';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { WorkerVideoModule } from './worker-video.module';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const HOLD_MICROS = 8_000_000n;

/** An upstream in memory whose polls answer from a script; `'hang'` never answers (the worker "dies"). */
class ScriptedVideoAdapter implements TaskAdapter {
  readonly submissions: string[] = [];
  readonly polledHandles: JsonHandle[] = [];
  /** What the task row held as its handle when each poll arrived. */
  readonly storedHandleAtPoll: unknown[] = [];
  readonly script: Array<TaskPollResult | 'hang'> = [];

  constructor(private readonly store: TaskStore) {}

  async submit(_request: unknown, context: { submissionKey: string }): Promise<TaskSubmission> {
    this.submissions.push(context.submissionKey);
    return { handle: { upstreamTaskId: `gamma-${this.submissions.length}` } };
  }

  /** When each poll arrived (ms since the epoch). */
  readonly polledAt: number[] = [];

  async poll(handle: JsonHandle, context: { submissionKey: string }): Promise<TaskPollResult> {
    this.polledAt.push(Date.now());
    this.polledHandles.push(handle);
    this.storedHandleAtPoll.push((await this.store.findById(context.submissionKey))?.upstreamHandle);
    const next = this.script.shift() ?? { state: 'pending' };
    if (next === 'hang') return new Promise<TaskPollResult>(() => undefined);
    return next;
  }
}

describe('worker-video (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let store: TaskStore;
  let queue: Queue;
  let prefix: string;
  let sequence = 0;
  const apps: INestApplicationContext[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    store = new TaskStore(prisma, pool);
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

  beforeEach(() => {
    prefix = `test-wvideo-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await queue.obliterate({ force: true });
    await queue.close();
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  async function startWorker(
    adapter?: TaskAdapter,
    sweeps: { strandedSweepIntervalMs?: number; strandedAfterMs?: number } = {},
  ): Promise<INestApplicationContext> {
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      ADMIN_TOKEN: 'test-admin-token-0123456789',
      MASTER_KEY: 'ef'.repeat(32),
      LOG_LEVEL: 'silent',
      SHUTDOWN_GRACE_MS: '200',
      QUEUE_LOCK_DURATION_MS: '1000',
      QUEUE_STALLED_INTERVAL_MS: '300',
    };
    const context = {
      channel: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 'unused' }, settings: {} },
    } as AdapterContext;
    const module = WorkerVideoModule.forRoot({
      env,
      // Without one, no channel type has an asynchronous adapter (whatever the registry holds).
      adapters: new Map(adapter ? [['gamma', adapter]] : []),
      connectChannel: adapter ? async () => context : undefined,
      timing: { minPollDelayMs: 50, maxPollDelayMs: 100, submissionTimeoutMs: 10_000 },
      ...sweeps,
    });
    const app = await NestFactory.createApplicationContext(module, { logger: false });
    apps.push(app);
    return app;
  }

  /** With `enqueue: false`, the gateway committed the row but could not enqueue its job (Redis down). */
  async function queuedVideoTask(
    { enqueue }: { enqueue: boolean } = { enqueue: true },
  ): Promise<{ taskId: string; holdRequestId: string }> {
    sequence += 1;
    const holdRequestId = `req_video_${sequence}`;
    await new HoldService(pool).take({
      requestId: holdRequestId,
      accountId: 'acct_video',
      keyId: 'key_video',
      model: 'gamma-2',
      route: '/v1/videos',
      amount: HOLD_MICROS,
      ttlMs: 3_600_000,
    });
    const { task } = await store.create({
      id: `video_${sequence}`,
      kind: 'video',
      keyId: 'key_video',
      accountId: 'acct_video',
      model: 'gamma-2',
      channelId: 'chan_gamma',
      request: { prompt: 'a paper boat', seconds: 4 },
      holdRequestId,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    if (enqueue) await enqueueTaskStep(queue, task.id);
    return { taskId: task.id, holdRequestId };
  }

  /**
   * Waits for the task's step job to end and returns the state it ended in. BullMQ ends the job only
   * once the step returned, after its settlement or release; the task's status alone turns terminal
   * just before that ledger write, so a test that stopped at the status could read the ledger early.
   */
  async function stepJobEndState(taskId: string): Promise<string | undefined> {
    await waitFor(async () => (await queue.getJob(taskStepJobId(taskId)))?.finishedOn !== undefined, 20_000);
    return (await queue.getJob(taskStepJobId(taskId)))?.getState();
  }

  async function ledgerKinds(requestId: string): Promise<Array<[string, bigint]>> {
    const rows = await prisma.ledgerEntry.findMany({ where: { requestId }, orderBy: { id: 'asc' } });
    return rows.map((row) => [row.kind, row.amount]);
  }

  it('keeps the polls of a channel with a ceiling under it across its tasks, failing none', async () => {
    const pollsPerSecond = 4;
    await prisma.channel.update({ where: { id: 'chan_gamma' }, data: { pollsPerSecond } });
    try {
      const adapter = new ScriptedVideoAdapter(store);
      await startWorker(adapter);
      const tasks = [await queuedVideoTask(), await queuedVideoTask(), await queuedVideoTask()];
      // Unpaced, three tasks polled every 50–100 ms would make these polls in a fraction of a second.
      const observed = 12;
      await waitFor(async () => adapter.polledAt.length >= observed, 20_000);

      const times = adapter.polledAt.slice(0, observed);
      const elapsedSeconds = (times[times.length - 1] - times[0]) / 1000;
      // A bucket of one second's polls, then one per 1/pollsPerSecond: a bound a slow machine only helps.
      expect(observed).toBeLessThanOrEqual(pollsPerSecond + Math.ceil(elapsedSeconds * pollsPerSecond) + 1);
      for (const { taskId } of tasks) {
        expect((await store.findById(taskId))?.status).toBe('processing');
        expect(await queue.getJob(taskStepJobId(taskId)).then((job) => job?.failedReason)).toBeUndefined();
      }

      const done: TaskPollResult = {
        state: 'completed',
        outputs: [{ url: 'http://upstream.test/paced.mp4', contentType: 'video/mp4' }],
        warnings: [],
      };
      adapter.script.push(done, done, done);
      for (const { taskId } of tasks) expect(await stepJobEndState(taskId)).toBe('completed');
    } finally {
      await prisma.channel.update({ where: { id: 'chan_gamma' }, data: { pollsPerSecond: null } });
    }
  });

  it('submits, polls while pending and settles on completion, the handle stored before the first poll', async () => {
    const adapter = new ScriptedVideoAdapter(store);
    adapter.script.push(
      { state: 'pending', progress: 30 },
      { state: 'pending', progress: 70 },
      {
        state: 'completed',
        outputs: [{ url: 'http://upstream.test/boat.mp4', contentType: 'video/mp4' }],
        warnings: [],
      },
    );
    await startWorker(adapter);
    const { taskId, holdRequestId } = await queuedVideoTask();

    expect(await stepJobEndState(taskId)).toBe('completed');

    expect(adapter.submissions).toEqual([taskId]);
    expect(adapter.storedHandleAtPoll).toEqual([
      { upstreamTaskId: 'gamma-1' },
      { upstreamTaskId: 'gamma-1' },
      { upstreamTaskId: 'gamma-1' },
    ]);
    expect(await store.findById(taskId)).toMatchObject({
      status: 'completed',
      progress: 100,
      resultUrl: 'http://upstream.test/boat.mp4',
    });
    expect(await ledgerKinds(holdRequestId)).toEqual([['capture', HOLD_MICROS]]);
  });

  it('does not resubmit when a worker dies mid-poll and another one takes the task over', async () => {
    const adapter = new ScriptedVideoAdapter(store);
    adapter.script.push({ state: 'pending', progress: 30 }, 'hang', {
      state: 'completed',
      outputs: [{ url: 'http://upstream.test/late.mp4' }],
      warnings: [],
    });
    const first = await startWorker(adapter);
    const { taskId, holdRequestId } = await queuedVideoTask();
    await waitFor(async () => adapter.storedHandleAtPoll.length === 2, 20_000);

    // The grace period (200 ms) elapses with the poll still hanging: the job is abandoned mid-run.
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    expect((await store.findById(taskId))?.status).toBe('processing');

    // The abandoned job's lock expires unrenewed and the second worker's stalled-job check takes it over.
    await startWorker(adapter);
    expect(await stepJobEndState(taskId)).toBe('completed');

    expect(await store.findById(taskId)).toMatchObject({
      status: 'completed',
      resultUrl: 'http://upstream.test/late.mp4',
    });
    expect(adapter.submissions).toEqual([taskId]);
    expect(adapter.polledHandles).toEqual([
      { upstreamTaskId: 'gamma-1' },
      { upstreamTaskId: 'gamma-1' },
      { upstreamTaskId: 'gamma-1' },
    ]);
    expect(await ledgerKinds(holdRequestId)).toEqual([['capture', HOLD_MICROS]]);
  });

  it('fails a task cleanly and releases its hold while no asynchronous adapter is registered', async () => {
    await startWorker();
    const { taskId, holdRequestId } = await queuedVideoTask();

    expect(await stepJobEndState(taskId)).toBe('completed');

    expect(await store.findById(taskId)).toMatchObject({
      status: 'failed',
      failureReason: 'no asynchronous adapter for channel type gamma',
    });
    // Released in full: no money moved, so the ledger has no row for it.
    expect(await ledgerKinds(holdRequestId)).toEqual([]);
    expect(await queue.getJobScheduler(OVERDUE_SWEEP_JOB_NAME)).toMatchObject({ every: 60_000 });
    expect(await queue.getJobScheduler(STRANDED_SWEEP_JOB_NAME)).toMatchObject({ every: 60_000 });
  });

  it('runs a task whose step job was never enqueued, once the stranded sweep finds it idle', async () => {
    const adapter = new ScriptedVideoAdapter(store);
    adapter.script.push({
      state: 'completed',
      outputs: [{ url: 'http://upstream.test/found.mp4' }],
      warnings: [],
    });
    const { taskId, holdRequestId } = await queuedVideoTask({ enqueue: false });
    await startWorker(adapter, { strandedSweepIntervalMs: 200, strandedAfterMs: 300 });

    expect(await stepJobEndState(taskId)).toBe('completed');

    expect(await store.findById(taskId)).toMatchObject({ status: 'completed' });
    expect(adapter.submissions).toEqual([taskId]);
    expect(await ledgerKinds(holdRequestId)).toEqual([['capture', HOLD_MICROS]]);
  });
});
