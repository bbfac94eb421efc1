import type { PrismaClient } from '@gateway/db';
import { waitFor } from '@gateway/testing';
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
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const IDLE_MS = 600_000;

describe('StrandedTaskSweep (Postgres, Redis)', () => {
  let taskDatabase: TaskDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let store: TaskStore;
  let queue: Queue;
  let prefix: string;
  let sequence = 0;

  beforeAll(async () => {
    taskDatabase = await openTaskDatabase(4);
    ({ pool, prisma, store } = taskDatabase);
    await pool.query(`INSERT INTO accounts (id, name) VALUES ('acct_sweep', 'sweep')`);
  });

  beforeEach(async () => {
    await prisma.task.deleteMany();
    await prisma.hold.deleteMany();
    prefix = `test-stranded-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
  });

  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });

  afterAll(async () => {
    await taskDatabase.close();
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

  describe('finished tasks whose hold is still open (a worker died before settling)', () => {
    /** A finished task with a hold of its own, open or already settled. */
    async function finishedWithHold(status: TaskStatus, holdStatus: 'open' | 'settled'): Promise<string> {
      const taskId = await task({ status });
      await pool.query(
        `INSERT INTO holds (request_id, account_id, key_id, model, route, amount, status, expires_at)
         VALUES ($1, 'acct_sweep', 'key_sweep', 'delta-2', '/v1/videos', 1000, $2, now() + interval '1 hour')`,
        [taskId, holdStatus],
      );
      await pool.query('UPDATE tasks SET hold_request_id = $1 WHERE id = $1', [taskId]);
      await pool.query(`UPDATE tasks SET updated_at = now() - interval '1 hour' WHERE id = $1`, [taskId]);
      return taskId;
    }

    it('runs a parked step job now, gives one to a task without, and leaves settled ones alone', async () => {
      const parked = await finishedWithHold('completed', 'open');
      await queue.add(
        TASK_STEP_JOB_NAME,
        { taskId: parked },
        { ...taskStepJobOptions(parked), delay: 600_000 },
      );
      const jobless = await finishedWithHold('failed', 'open');
      const settled = await finishedWithHold('completed', 'settled');
      const unheld = await task({ status: 'cancelled' });

      expect(await sweep().run(idleSince())).toEqual({ looked: 2, revived: 2, failed: [] });

      expect(await stateOf(parked)).toBe('waiting');
      expect(await stateOf(jobless)).toBe('waiting');
      for (const untouched of [settled, unheld]) expect(await stateOf(untouched)).toBe('unknown');
    });
  });

  it('pages through every idle open task', async () => {
    const ids = [await task(), await task(), await task(), await task(), await task()];

    expect(await sweep(2).run(idleSince())).toEqual({ looked: 5, revived: 5, failed: [] });

    for (const taskId of ids) expect(await stateOf(taskId)).toBe('waiting');
  });
});
