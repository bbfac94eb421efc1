import type { HoldService } from '@gateway/billing';
import type { PrismaClient, Task } from '@gateway/db';
import {
  UpstreamError,
  type AdapterContext,
  type JsonHandle,
  type TaskAdapter,
  type TaskPollResult,
  type TaskSubmission,
} from '@gateway/providers-core';
import { PrismaTaskChannelResolver } from '../task/prisma-task-channel.resolver';
import { TaskSettlementService } from '../task/task-settlement.service';
import { TaskStepProcessor } from '../task/task-step.processor';
import { TaskStore } from '../task/task-store';
import { MusicBatchPoller } from './music-batch.poller';
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';

const HOLD_MICROS = 30_000n;

/** A batch-polled upstream in memory: records each batch, answers each handle from its script. */
class FakeBatchAdapter implements TaskAdapter {
  readonly batches: JsonHandle[][] = [];
  readonly polls: JsonHandle[] = [];
  /** Answers by upstream id; an id without one is pending. */
  answers = new Map<string, TaskPollResult>();

  async submit(): Promise<TaskSubmission> {
    return { handle: { taskId: 'unused' } };
  }

  async poll(handle: JsonHandle): Promise<TaskPollResult> {
    this.polls.push(handle);
    return { state: 'pending' };
  }

  async pollMany(handles: readonly JsonHandle[]): Promise<TaskPollResult[]> {
    this.batches.push([...handles]);
    return handles.map(
      (handle) => this.answers.get((handle as { taskId: string }).taskId) ?? { state: 'pending' },
    );
  }
}

const silentLogger = { info: () => undefined, warn: () => undefined };
const context = {
  channel: { baseUrl: 'http://127.0.0.1:9', credentials: {}, settings: {} },
} as AdapterContext;

describe('MusicBatchPoller (Postgres)', () => {
  let taskDatabase: TaskDatabase;
  let prisma: PrismaClient;
  let store: TaskStore;
  let holds: HoldService;
  let settlement: TaskSettlementService;
  let sequence = 0;

  beforeAll(async () => {
    taskDatabase = await openTaskDatabase(6);
    ({ prisma, store, holds, settlement } = taskDatabase);
    await prisma.account.create({ data: { id: 'acct_music', name: 'music', balance: 1_000_000_000n } });
    for (const id of ['chan_a', 'chan_b']) {
      await taskDatabase.createChannel({ id, type: 'lambda', models: [{ model: 'lambda-v4' }] });
    }
  });
  afterAll(async () => {
    await taskDatabase.close();
  });

  /** Only this test's tasks are open: earlier tests' tasks are ended so that each cycle sees its own. */
  beforeEach(async () => {
    await prisma.task.updateMany({
      where: { status: { in: ['queued', 'processing'] } },
      data: { status: 'cancelled' },
    });
  });

  function poller(adapter: FakeBatchAdapter): { poller: MusicBatchPoller; processor: TaskStepProcessor } {
    const clock = { now: () => Date.now() };
    const processor = new TaskStepProcessor({
      store,
      adapters: new Map([['lambda', adapter]]),
      channels: new PrismaTaskChannelResolver(prisma, async () => context),
      releaseHold: (holdRequestId) => settlement.releaseHold(holdRequestId),
      settle: (task, outcome) => settlement.settle(task, outcome),
      clock,
      logger: silentLogger,
    });
    return {
      processor,
      poller: new MusicBatchPoller({
        prisma,
        processor,
        adapters: new Map([['lambda', adapter]]),
        connectChannel: async () => context,
        clock,
        logger: silentLogger,
      }),
    };
  }

  /** A music task as the gateway creates it and its step submits it: held, processing, with a handle. */
  async function submittedTask(
    options: { channelId?: string; kind?: string; deadlineInMs?: number; handle?: boolean } = {},
  ): Promise<Task> {
    sequence += 1;
    const id = `music_${sequence}`;
    expect(
      (
        await holds.take({
          requestId: id,
          accountId: 'acct_music',
          keyId: 'key_music',
          model: 'lambda-v4',
          route: '/lambda/submit/{action}',
          amount: HOLD_MICROS,
          ttlMs: 3_600_000,
        })
      ).ok,
    ).toBe(true);
    await store.create({
      id,
      kind: options.kind ?? 'music',
      keyId: 'key_music',
      accountId: 'acct_music',
      model: 'lambda-v4',
      channelId: options.channelId ?? 'chan_a',
      request: { kind: 'lambda', action: 'music', fields: { prompt: 'x' }, continueOf: null },
      holdRequestId: id,
      deadlineAt: new Date(Date.now() + (options.deadlineInMs ?? 600_000)),
    });
    await store.transition(id, 'queued', 'processing');
    if (options.handle !== false) {
      await store.updateWhile(id, 'processing', { upstreamHandle: { taskId: `up-${id}`, action: 'music' } });
    }
    return (await store.findById(id)) as Task;
  }

  const handleOf = (task: Task) => ({ taskId: `up-${task.id}`, action: 'music' });
  const completed = (seconds: number): TaskPollResult => ({
    state: 'completed',
    outputs: [{ url: 'http://upstream.test/clip.mp3', contentType: 'audio/mpeg' }],
    usage: { audio: { seconds } },
    warnings: [],
  });
  const capturesOf = async (requestId: string) =>
    (await prisma.ledgerEntry.findMany({ where: { requestId, kind: 'capture' } })).map(
      (entry) => entry.amount,
    );

  it('asks each channel once about all its open, submitted music tasks, and nothing else', async () => {
    const adapter = new FakeBatchAdapter();
    const onA = [await submittedTask(), await submittedTask(), await submittedTask()];
    const onB = await submittedTask({ channelId: 'chan_b' });
    await submittedTask({ handle: false });
    await submittedTask({ kind: 'video' });
    await submittedTask({ deadlineInMs: -1_000 });

    const cycle = await poller(adapter).poller.runCycle();

    expect(cycle).toEqual({ channels: 2, tasks: 4, failedChannels: 0 });
    expect(adapter.batches).toHaveLength(2);
    expect(adapter.batches).toEqual(expect.arrayContaining([onA.map(handleOf), [handleOf(onB)]]));
    expect(adapter.polls).toEqual([]);
  });

  it('records every answer of a batch: completions captured once, failures released, progress kept', async () => {
    const adapter = new FakeBatchAdapter();
    const [done, failed, running] = [await submittedTask(), await submittedTask(), await submittedTask()];
    adapter.answers.set(`up-${done.id}`, completed(300.75));
    adapter.answers.set(`up-${failed.id}`, {
      state: 'failed',
      failure: { kind: 'bad_request', retryable: false, message: 'lyrics rejected' },
    });
    adapter.answers.set(`up-${running.id}`, { state: 'pending', phase: 'processing', progress: 55 });
    // Its row was last written a minute ago: the progress write interval (5 s) has passed. A row written
    // just now keeps its progress until the interval passes (fewer statements per batch).
    await prisma.task.update({
      where: { id: running.id },
      data: { updatedAt: new Date(Date.now() - 60_000) },
    });
    const fresh = await submittedTask();
    adapter.answers.set(`up-${fresh.id}`, { state: 'pending', phase: 'processing', progress: 20 });

    await poller(adapter).poller.runCycle();

    expect(await store.findById(done.id)).toMatchObject({ status: 'completed', mediaSeconds: 301 });
    expect(await store.findById(failed.id)).toMatchObject({
      status: 'failed',
      failureReason: 'bad_request: lyrics rejected',
    });
    expect(await store.findById(running.id)).toMatchObject({ status: 'processing', progress: 55 });
    expect(await store.findById(fresh.id)).toMatchObject({ status: 'processing', progress: 0 });
    expect(await capturesOf(done.id)).toEqual([HOLD_MICROS]);
    expect(await capturesOf(failed.id)).toEqual([]);
    expect((await prisma.hold.findUnique({ where: { requestId: failed.id } }))?.status).toBe('settled');
  });

  it('settles a task once when two cycles race on the same answer', async () => {
    const adapter = new FakeBatchAdapter();
    const task = await submittedTask();
    adapter.answers.set(`up-${task.id}`, completed(10));
    const { poller: first } = poller(adapter);
    const { poller: second } = poller(adapter);

    await Promise.all([first.runCycle(), second.runCycle()]);

    expect(await capturesOf(task.id)).toEqual([HOLD_MICROS]);
    expect((await store.findById(task.id))?.status).toBe('completed');
  });

  it('leaves the tasks of a channel that cannot be asked open, and still polls the other channel', async () => {
    const onA = await submittedTask();
    const onB = await submittedTask({ channelId: 'chan_b' });
    const working = new FakeBatchAdapter();
    working.answers.set(`up-${onB.id}`, completed(5));
    const clock = { now: () => Date.now() };
    const { processor } = poller(working);
    const split = new MusicBatchPoller({
      prisma,
      processor,
      adapters: new Map([['lambda', working]]),
      connectChannel: async (channel) => {
        if (channel.id === 'chan_a')
          throw new UpstreamError({ kind: 'overload', retryable: true, message: 'down' });
        return context;
      },
      clock,
      logger: silentLogger,
    });

    expect(await split.runCycle()).toEqual({ channels: 2, tasks: 2, failedChannels: 1 });
    expect((await store.findById(onA.id))?.status).toBe('processing');
    expect((await store.findById(onB.id))?.status).toBe('completed');
  });

  it('keeps the per-task step from polling a batch-polled task: it waits for the deadline instead', async () => {
    const adapter = new FakeBatchAdapter();
    const task = await submittedTask({ deadlineInMs: 600_000 });
    const { processor } = poller(adapter);

    const step = await processor.runStep(task.id);

    expect(step.kind).toBe('wait');
    expect(step.kind === 'wait' && step.delayMs).toBeGreaterThan(590_000);
    expect(adapter.polls).toEqual([]);
    expect(adapter.batches).toEqual([]);
  });
});
