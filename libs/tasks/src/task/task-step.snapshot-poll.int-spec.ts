import type { PrismaClient } from '@gateway/db';
import type { AdapterContext, TaskAdapter, TaskPollResult, TaskSubmission } from '@gateway/providers-core';
import { UpstreamError } from '@gateway/providers-core';
import { DelayedError } from 'bullmq';
import { Client } from 'pg';
import type { TaskStepJob } from '../jobs/task-step.job';
import { runStepJob } from '../runtime/step-job.runner';
import type { JsonHandle } from './json-value';
import { PrismaTaskChannelResolver } from './prisma-task-channel.resolver';
import { ROW_RECHECK_MS } from './task-poll-snapshot';
import { TaskStepProcessor } from './task-step.processor';
import type { PollRateGate, TaskOutcome } from './task-step.types';
import { TaskStore } from './task-store';
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';

/** An upstream in memory that answers polls from a script (pending without progress when it runs out). */
class ScriptedUpstream implements TaskAdapter {
  readonly polls: JsonHandle[] = [];
  pollScript: Array<TaskPollResult | UpstreamError> = [];

  async submit(): Promise<TaskSubmission> {
    return { handle: { upstreamId: 'up-1' } };
  }

  async poll(handle: JsonHandle): Promise<TaskPollResult> {
    this.polls.push(handle);
    const next = this.pollScript.shift() ?? { state: 'pending' };
    if (next instanceof UpstreamError) throw next;
    return next;
  }
}

/** A BullMQ job as the processor sees it, keeping the data it is given and counting rewrites. */
function stepJob(taskId: string) {
  const job = {
    data: { taskId } as TaskStepJob,
    dataWrites: 0,
    delayedUntil: [] as number[],
    moveToDelayed: async (timestamp: number) => {
      job.delayedUntil.push(timestamp);
    },
    updateData: async (data: TaskStepJob) => {
      job.dataWrites += 1;
      job.data = data;
    },
  };
  return job;
}

/** Steps the job once; 'delayed' when it re-scheduled itself. */
async function step(processor: TaskStepProcessor, job: ReturnType<typeof stepJob>): Promise<unknown> {
  try {
    return await runStepJob(processor, job, 'token');
  } catch (error) {
    if (error instanceof DelayedError) return 'delayed';
    throw error;
  }
}

const silentLogger = { info: () => undefined, warn: () => undefined };
/** The least time between two progress writes of one task (TASK_PROGRESS_WRITE_INTERVAL_MS). */
const PROGRESS_INTERVAL_MS = 5_000;

describe('TaskStepProcessor polling from the job snapshot (Postgres)', () => {
  let taskDatabase: TaskDatabase;
  let prisma: PrismaClient;
  let store: TaskStore;
  let sequence = 0;
  /** Every statement any pg client of this process sends (Prisma's adapter and the store's pool alike). */
  let statements: string[] = [];
  let querySpy: jest.SpyInstance;

  beforeAll(async () => {
    taskDatabase = await openTaskDatabase(4);
    ({ prisma, store } = taskDatabase);
    await prisma.account.create({ data: { id: 'acct_poll', name: 'poll', balance: 1_000_000n } });
    await taskDatabase.createChannel({ id: 'chan_poll', type: 'gamma', models: [{ model: 'gamma-2' }] });
    const original = Client.prototype.query;
    querySpy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (
      this: Client,
      ...args: unknown[]
    ) {
      const [config] = args;
      statements.push(typeof config === 'string' ? config : String((config as { text?: string })?.text));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query);
  });

  afterAll(async () => {
    querySpy.mockRestore();
    await taskDatabase.close();
  });

  function harness(options: { pollGate?: PollRateGate } = {}) {
    const upstream = new ScriptedUpstream();
    const clock = { nowMs: Date.now(), now: () => clock.nowMs };
    const settled: Array<{ taskId: string; outcome: TaskOutcome }> = [];
    const context = {
      channel: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 's' }, settings: {} },
    } as AdapterContext;
    const processor = new TaskStepProcessor({
      store,
      adapters: new Map([['gamma', upstream]]),
      channels: new PrismaTaskChannelResolver(prisma, async () => context, clock),
      releaseHold: async () => undefined,
      settle: async (task, outcome) => {
        settled.push({ taskId: task.id, outcome });
      },
      clock,
      logger: silentLogger,
      timing: {
        minPollDelayMs: 1_000,
        maxPollDelayMs: 30_000,
        submissionTimeoutMs: 120_000,
        progressWriteIntervalMs: PROGRESS_INTERVAL_MS,
      },
      pollGate: options.pollGate,
    });
    return { processor, upstream, clock, settled };
  }

  /** A task submitted upstream by its first step: its job now carries the poll snapshot. */
  async function submittedTask(h: ReturnType<typeof harness>) {
    sequence += 1;
    const { task } = await store.create({
      id: `vid_poll_${sequence}`,
      kind: 'video',
      keyId: 'key_poll',
      accountId: 'acct_poll',
      model: 'gamma-2',
      channelId: 'chan_poll',
      request: { prompt: 'tide' },
      deadlineAt: new Date(h.clock.nowMs + 3_600_000),
    });
    const job = stepJob(task.id);
    expect(await step(h.processor, job)).toBe('delayed');
    expect(job.data.poll).toMatchObject({ handle: { upstreamId: 'up-1' }, channelId: 'chan_poll' });
    return { task, job };
  }

  /** Statements sent while `run` runs. */
  async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
    statements = [];
    await run();
    const sent = statements;
    statements = [];
    return sent;
  }

  it('a poll that finds nothing new sends no statement and leaves the job data alone', async () => {
    const h = harness();
    const { job } = await submittedTask(h);
    const writesBefore = job.dataWrites;
    h.upstream.pollScript = [{ state: 'pending' }, { state: 'pending', progress: 0 }];

    const sent = await statementsDuring(async () => {
      expect(await step(h.processor, job)).toBe('delayed');
      expect(await step(h.processor, job)).toBe('delayed');
    });

    expect(h.upstream.polls).toHaveLength(2);
    expect(sent).toEqual([]);
    expect(job.dataWrites).toBe(writesBefore);
    expect(job.delayedUntil).toHaveLength(3);
  });

  /** Moves the test's clock to `ms` after now: past the row's last write, which Postgres stamped in real time. */
  const clockAt = (h: ReturnType<typeof harness>, ms: number) => {
    h.clock.nowMs = Date.now() + ms;
  };

  it('holds progress back within the write interval without a statement, and writes it once it passed', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    const progressRows = () => prisma.taskEvent.count({ where: { taskId: task.id, status: 'processing' } });
    const eventsBefore = await progressRows();
    h.upstream.pollScript = [
      { state: 'pending', progress: 10 },
      { state: 'pending', progress: 30 },
      { state: 'pending', progress: 35 },
      { state: 'pending', progress: 60 },
    ];

    // Right after the handle was stored: a new progress waits.
    expect(await statementsDuring(() => step(h.processor, job))).toEqual([]);
    expect((await store.findById(task.id))?.progress).toBe(0);
    expect(job.data.poll?.progress).toBe(0);

    clockAt(h, PROGRESS_INTERVAL_MS);
    expect((await statementsDuring(() => step(h.processor, job))).length).toBeGreaterThan(0);
    expect((await store.findById(task.id))?.progress).toBe(30);
    expect(job.data.poll).toMatchObject({ progress: 30, progressWrittenAtMs: h.clock.nowMs });

    // Within the interval after that write: nothing, however far the upstream moved.
    h.clock.nowMs += PROGRESS_INTERVAL_MS - 1;
    expect(await statementsDuring(() => step(h.processor, job))).toEqual([]);
    expect((await store.findById(task.id))?.progress).toBe(30);

    h.clock.nowMs += 1;
    expect((await statementsDuring(() => step(h.processor, job))).length).toBeGreaterThan(0);
    expect((await store.findById(task.id))?.progress).toBe(60);
    // Two progress writes, so two task_events rows: the stream's clients saw 30 and 60, never 10 or 35.
    expect((await progressRows()) - eventsBefore).toBe(2);
    expect(h.upstream.polls).toHaveLength(4);
  });

  it('writes the row when progress moves, then again nothing while it stays', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    h.upstream.pollScript = [{ state: 'pending', progress: 40 }];
    clockAt(h, PROGRESS_INTERVAL_MS);

    const moved = await statementsDuring(() => step(h.processor, job));
    expect(moved.length).toBeGreaterThan(0);
    expect((await store.findById(task.id))?.progress).toBe(40);
    expect(job.data.poll?.progress).toBe(40);

    const progressEvents = await prisma.taskEvent.count({ where: { taskId: task.id, progress: 40 } });
    expect(progressEvents).toBe(1);

    // Within the channel row's cache (CHANNEL_ROW_TTL_MS), as polls of a busy channel are.
    h.clock.nowMs += PROGRESS_INTERVAL_MS - 1;
    h.upstream.pollScript = [{ state: 'pending', progress: 40 }];
    expect(await statementsDuring(() => step(h.processor, job))).toEqual([]);
    expect(await prisma.taskEvent.count({ where: { taskId: task.id, progress: 40 } })).toBe(progressEvents);
  });

  it('never holds the end back: a completion right after a progress write is written at once', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    clockAt(h, PROGRESS_INTERVAL_MS);
    h.upstream.pollScript = [
      { state: 'pending', progress: 40 },
      { state: 'completed', outputs: [{ url: 'http://127.0.0.1:9/v.mp4' }], warnings: [] },
    ];
    expect(await step(h.processor, job)).toBe('delayed');
    h.clock.nowMs += 1;

    await expect(h.processor.process(job, 'token')).resolves.toEqual({
      kind: 'finished',
      status: 'completed',
    });
    expect(await store.findById(task.id)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('the periodic row check keeps the interval: a row just written holds progress back too', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    // Due for a row check, but the row was written (its progress) a moment ago in real time.
    await store.updateWhile(task.id, 'processing', { progress: 20 });
    h.clock.nowMs = Date.now() + ROW_RECHECK_MS;
    const written = (await store.findById(task.id))?.updatedAt.getTime() ?? 0;
    h.clock.nowMs = written + PROGRESS_INTERVAL_MS - 1;
    job.data = { ...job.data, poll: job.data.poll && { ...job.data.poll, rowReadAtMs: 0 } };
    h.upstream.pollScript = [{ state: 'pending', progress: 50 }];

    expect(await step(h.processor, job)).toBe('delayed');
    expect((await store.findById(task.id))?.progress).toBe(20);
    // The row read gave the job a fresh snapshot: the progress it holds and when it was written.
    expect(job.data.poll).toMatchObject({ progress: 20, progressWrittenAtMs: written });

    h.clock.nowMs = written + PROGRESS_INTERVAL_MS;
    h.upstream.pollScript = [{ state: 'pending', progress: 50 }];
    expect(await step(h.processor, job)).toBe('delayed');
    expect((await store.findById(task.id))?.progress).toBe(50);
  });

  it('a progress write loses to a row that left processing, and the step ends as stored', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    expect(await store.transition(task.id, 'processing', 'cancelled', { failureReason: 'client' })).toBe(
      true,
    );
    h.upstream.pollScript = [{ state: 'pending', progress: 80 }];
    clockAt(h, PROGRESS_INTERVAL_MS);

    await expect(h.processor.process(job, 'token')).resolves.toEqual({
      kind: 'finished',
      status: 'cancelled',
    });
    expect(await store.findById(task.id)).toMatchObject({ status: 'cancelled', progress: 0 });
  });

  it('ends the task on a terminal answer, settling once', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    h.upstream.pollScript = [
      { state: 'completed', outputs: [{ url: 'http://127.0.0.1:9/v.mp4' }], warnings: [] },
    ];

    await expect(h.processor.process(job, 'token')).resolves.toEqual({
      kind: 'finished',
      status: 'completed',
    });

    const row = await store.findById(task.id);
    expect(row).toMatchObject({ status: 'completed', progress: 100, resultUrl: 'http://127.0.0.1:9/v.mp4' });
    expect(h.settled.map((entry) => entry.taskId)).toEqual([task.id]);
  });

  it('a stale snapshot never overwrites a newer row: the cancel stands and nothing settles', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    expect(await store.transition(task.id, 'processing', 'cancelled', { failureReason: 'client' })).toBe(
      true,
    );
    h.upstream.pollScript = [
      { state: 'completed', outputs: [{ url: 'http://127.0.0.1:9/v.mp4' }], warnings: [] },
    ];

    await expect(h.processor.process(job, 'token')).resolves.toEqual({
      kind: 'finished',
      status: 'cancelled',
    });

    expect((await store.findById(task.id))?.status).toBe('cancelled');
    expect(h.settled).toEqual([]);
  });

  it('a task cancelled meanwhile stops being polled at the next row check', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    expect(await store.transition(task.id, 'processing', 'cancelled', { failureReason: 'client' })).toBe(
      true,
    );
    h.clock.nowMs += ROW_RECHECK_MS;

    await expect(h.processor.process(job, 'token')).resolves.toEqual({
      kind: 'finished',
      status: 'cancelled',
    });
    expect(h.upstream.polls).toHaveLength(0);
  });

  it('a passing upstream failure waits without a statement; a final one fails the task', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    const passing = new UpstreamError({
      kind: 'rate_limit',
      retryable: true,
      message: 'slow down',
      httpStatus: 429,
    });
    h.upstream.pollScript = [passing];
    expect(await statementsDuring(() => step(h.processor, job))).toEqual([]);

    const final = new UpstreamError({
      kind: 'bad_request',
      retryable: false,
      message: 'gone',
      httpStatus: 400,
    });
    h.upstream.pollScript = [final];
    await expect(h.processor.process(job, 'token')).resolves.toEqual({ kind: 'finished', status: 'failed' });
    expect((await store.findById(task.id))?.failureReason).toContain('gone');
  });

  it('past the deadline the snapshot defers to the row', async () => {
    const h = harness();
    const { task, job } = await submittedTask(h);
    h.clock.nowMs = task.deadlineAt.getTime() + 1;

    await expect(h.processor.process(job, 'token')).resolves.toEqual({ kind: 'finished', status: 'failed' });
    expect((await store.findById(task.id))?.failureReason).toBe('deadline exceeded');
  });

  describe('with a poll-rate ceiling on the channel', () => {
    beforeAll(async () => {
      await prisma.channel.update({ where: { id: 'chan_poll' }, data: { pollsPerSecond: 1 } });
    });
    afterAll(async () => {
      await prisma.channel.update({ where: { id: 'chan_poll' }, data: { pollsPerSecond: null } });
    });

    it('waits for its booked turn without polling, then polls at it without booking again', async () => {
      const turns = [2_500];
      const gate = { reserve: jest.fn(async () => turns.shift() ?? 0) };
      const h = harness({ pollGate: gate });
      const { job } = await submittedTask(h);
      const pollsBefore = h.upstream.polls.length;

      expect(await step(h.processor, job)).toBe('delayed');
      expect(gate.reserve).toHaveBeenCalledWith('chan_poll', 1);
      expect(h.upstream.polls).toHaveLength(pollsBefore);
      expect(job.data.pollTurnAtMs).toBe(h.clock.nowMs + 2_500);
      expect(job.delayedUntil.at(-1)).toBeGreaterThanOrEqual(Date.now() + 2_000);

      h.clock.nowMs += 2_500;
      gate.reserve.mockClear();
      expect(await step(h.processor, job)).toBe('delayed');
      expect(gate.reserve).not.toHaveBeenCalled();
      expect(h.upstream.polls).toHaveLength(pollsBefore + 1);
      expect(job.data.pollTurnAtMs).toBeUndefined();
    });
  });
});
