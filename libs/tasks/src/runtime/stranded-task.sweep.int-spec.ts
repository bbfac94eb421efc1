import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import {
  enqueueTaskStep,
  TASK_STEP_JOB_NAME,
  taskStepJobId,
  taskStepJobOptions,
} from '../jobs/task-step.job';
import { QUEUE_NAMES } from '../queue-names';
import type { TaskStatus } from '../task/task-status';
import { TaskStore } from '../task/task-store';
import { StrandedTaskSweep } from './stranded-task.sweep';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IDLE_MS = 600_000;

describe('StrandedTaskSweep (Postgres, Redis)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let store: TaskStore;
  let queue: Queue;
  let prefix: string;
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    store = new TaskStore(prisma, pool);
  });

  beforeEach(async () => {
    await prisma.task.deleteMany();
    prefix = `test-stranded-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
  });

  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  /** A task row last written `idleMs` ago. */
  async function task(
    options: { status?: TaskStatus; kind?: string; idleMs?: number } = {},
  ): Promise<string> {
    sequence += 1;
    const id = `video_stranded_${String(sequence).padStart(4, '0')}`;
    await store.create({
      id,
      kind: options.kind ?? 'video',
      keyId: 'key_sweep',
      accountId: 'acct_sweep',
      model: 'delta-2',
      request: { prompt: 'tide pools' },
      deadlineAt: new Date(Date.now() + 3_600_000),
    });
    await pool.query(
      `UPDATE tasks SET status = $2, updated_at = now() - make_interval(secs => $3::float8 / 1000) WHERE id = $1`,
      [id, options.status ?? 'queued', options.idleMs ?? IDLE_MS],
    );
    return id;
  }

  const sweep = (pageSize?: number) => new StrandedTaskSweep(store, queue, ['video', 'music'], pageSize);
  const idleSince = () => new Date(Date.now() - IDLE_MS / 2);
  const stateOf = (taskId: string) => queue.getJobState(taskStepJobId(taskId));

  it('enqueues the step of idle open tasks that have no job, and only those', async () => {
    const queuedWithoutJob = await task();
    const processingWithoutJob = await task({ status: 'processing' });
    const fresh = await task({ idleMs: 0 });
    const finished = await task({ status: 'completed' });
    const otherQueue = await task({ kind: 'image' });

    expect(await sweep().run(idleSince())).toEqual({ looked: 2, revived: 2, failed: [] });

    expect(await stateOf(queuedWithoutJob)).toBe('waiting');
    expect(await stateOf(processingWithoutJob)).toBe('waiting');
    for (const untouched of [fresh, finished, otherQueue]) expect(await stateOf(untouched)).toBe('unknown');
  });

  it('leaves a task whose step job is live alone: no second job, the delay kept', async () => {
    const polling = await task({ status: 'processing' });
    await queue.add(
      TASK_STEP_JOB_NAME,
      { taskId: polling },
      { ...taskStepJobOptions(polling), delay: 60_000 },
    );
    const waiting = await task();
    await enqueueTaskStep(queue, waiting);

    expect(await sweep().run(idleSince())).toEqual({ looked: 2, revived: 0, failed: [] });

    expect(await stateOf(polling)).toBe('delayed');
    expect(await stateOf(waiting)).toBe('waiting');
    expect(await queue.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 1, delayed: 1 });
  });

  it('retries a step job kept as failed while its task is still open, its attempts reset', async () => {
    const taskId = await task({ status: 'processing' });
    await enqueueTaskStep(queue, taskId);
    const failing = new Worker(
      QUEUE_NAMES.videoTasks,
      async () => {
        throw new UnrecoverableError('database unreachable');
      },
      { connection: { url: REDIS_URL }, prefix },
    );
    await waitFor(async () => (await stateOf(taskId)) === 'failed');
    await failing.close();
    // A re-add under the task's id is a no-op while the failed job is kept: that is why the sweep retries.
    await enqueueTaskStep(queue, taskId);
    expect(await stateOf(taskId)).toBe('failed');

    expect(await sweep().run(idleSince())).toEqual({ looked: 1, revived: 1, failed: [] });

    expect(await stateOf(taskId)).toBe('waiting');
    expect((await queue.getJob(taskStepJobId(taskId)))?.attemptsMade).toBe(0);
  });

  it('pages through every idle open task', async () => {
    const ids = [await task(), await task(), await task(), await task(), await task()];

    expect(await sweep(2).run(idleSince())).toEqual({ looked: 5, revived: 5, failed: [] });

    for (const taskId of ids) expect(await stateOf(taskId)).toBe('waiting');
  });
});
