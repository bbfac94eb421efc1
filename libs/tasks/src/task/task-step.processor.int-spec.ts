import type { HoldService } from '@gateway/billing';
import type { PrismaClient, Task } from '@gateway/db';
import {
  UpstreamError,
  type AdapterContext,
  type TaskAdapter,
  type TaskCall,
  type TaskPollResult,
  type TaskSubmission,
} from '@gateway/providers-core';
import { DelayedError } from 'bullmq';
import type { TaskStepJob } from '../jobs/task-step.job';
import { runStepJob } from '../runtime/step-job.runner';
import type { JsonHandle, JsonObject } from './json-value';
import { PrismaTaskChannelResolver } from './prisma-task-channel.resolver';
import { toImageTaskPriceSnapshot, toVideoTaskPriceSnapshot } from './task-price-snapshot';
import { ROW_RECHECK_MS } from './task-poll-snapshot';
import { TASK_ABANDONED_END_REASON, TASK_CANCELLED_END_REASON } from './task-end-reason';
import { TaskSettlementService } from './task-settlement.service';
import { DEADLINE_EXCEEDED, SUBMISSION_OUTCOME_UNKNOWN, TaskStepProcessor } from './task-step.processor';
import type { TaskOutcome, TaskStepTiming } from './task-step.types';
import { TaskStore } from './task-store';
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';

const HOLD_MICROS = 5_000_000n;
const TIMING: TaskStepTiming = {
  minPollDelayMs: 1_000,
  maxPollDelayMs: 30_000,
  submissionTimeoutMs: 120_000,
  progressWriteIntervalMs: 5_000,
};

/** An upstream in memory: counts submissions and polls, answers polls from a script. */
class FakeTaskAdapter implements TaskAdapter {
  readonly submissions: TaskCall[] = [];
  readonly polls: JsonHandle[] = [];
  pollScript: TaskPollResult[] = [];
  submitFailure?: unknown;
  idempotentSubmit?: boolean;
  /** Runs while a poll is in flight, before it answers (another process acting meanwhile). */
  duringPoll?: () => Promise<void>;
  findSubmission?: (key: string) => Promise<TaskSubmission | undefined>;

  async submit(request: TaskCall): Promise<TaskSubmission> {
    this.submissions.push(request);
    if (this.submitFailure !== undefined) throw this.submitFailure;
    return { handle: { upstreamId: `up-${this.submissions.length}` } };
  }

  async poll(handle: JsonHandle): Promise<TaskPollResult> {
    this.polls.push(handle);
    await this.duringPoll?.();
    return this.pollScript.shift() ?? { state: 'pending' };
  }
}

const silentLogger = { info: () => undefined, warn: () => undefined };

describe('TaskStepProcessor (Postgres)', () => {
  let taskDatabase: TaskDatabase;
  let prisma: PrismaClient;
  let store: TaskStore;
  let holds: HoldService;
  let taskSettlement: TaskSettlementService;
  let sequence = 0;

  beforeAll(async () => {
    taskDatabase = await openTaskDatabase(6);
    ({ prisma, store, holds, settlement: taskSettlement } = taskDatabase);
    await prisma.account.create({ data: { id: 'acct_tasks', name: 'tasks', balance: 1_000_000_000n } });
    for (const type of ['gamma', 'lambda']) {
      await taskDatabase.createChannel({
        id: `chan_${type}`,
        type,
        models: [{ model: 'gamma-2', upstreamModel: 'gamma-2-upstream' }],
      });
    }
  });

  afterAll(async () => {
    await taskDatabase.close();
  });

  interface Harness {
    processor: TaskStepProcessor;
    adapter: FakeTaskAdapter;
    settled: Array<{ taskId: string; outcome: TaskOutcome }>;
    released: string[];
    clock: { nowMs: number; now(): number };
  }

  /** With `diesBeforeSettling`, the worker wins the terminal transition and dies before its settlement. */
  function harness(
    adapter = new FakeTaskAdapter(),
    clock = { nowMs: Date.now(), now: () => 0 },
    diesBeforeSettling = false,
  ): Harness {
    clock.now = () => clock.nowMs;
    const settled: Harness['settled'] = [];
    const released: string[] = [];
    const context = {
      channel: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 's' }, settings: {} },
    } as AdapterContext;
    const processor = new TaskStepProcessor({
      store,
      adapters: new Map([['gamma', adapter]]),
      channels: new PrismaTaskChannelResolver(prisma, async () => context),
      releaseHold: async (holdRequestId, reason) => {
        released.push(holdRequestId);
        await taskSettlement.releaseHold(holdRequestId, reason);
      },
      settle: async (task, outcome) => {
        if (diesBeforeSettling) throw new Error('worker died');
        settled.push({ taskId: task.id, outcome });
        await taskSettlement.settle(task, outcome);
      },
      clock,
      logger: silentLogger,
      timing: TIMING,
    });
    return { processor, adapter, settled, released, clock };
  }

  async function queuedTask(
    options: {
      channelId?: string;
      deadlineInMs?: number;
      priceSnapshot?: JsonObject;
      kind?: 'image' | 'video';
      holdMicros?: bigint;
      request?: JsonObject;
    } = {},
  ): Promise<Task> {
    sequence += 1;
    // As the gateway does: the hold is taken under the task's id, so its ledger and log rows name it.
    const holdRequestId = `video_${sequence}`;
    const taken = await holds.take({
      requestId: holdRequestId,
      accountId: 'acct_tasks',
      keyId: 'key_tasks',
      model: 'gamma-2',
      route: '/v1/videos',
      amount: options.holdMicros ?? HOLD_MICROS,
      ttlMs: 3_600_000,
    });
    expect(taken.ok).toBe(true);
    const { task } = await store.create({
      id: holdRequestId,
      kind: options.kind ?? 'video',
      keyId: 'key_tasks',
      accountId: 'acct_tasks',
      model: 'gamma-2',
      channelId: options.channelId ?? 'chan_gamma',
      request: options.request ?? { prompt: 'waves at dusk', seconds: 5 },
      holdRequestId,
      ...(options.priceSnapshot ? { priceSnapshot: options.priceSnapshot } : {}),
      deadlineAt: new Date(Date.now() + (options.deadlineInMs ?? 600_000)),
    });
    return task;
  }

  async function ledgerOf(requestId: string): Promise<Array<{ kind: string; amount: bigint }>> {
    const rows = await prisma.ledgerEntry.findMany({ where: { requestId }, orderBy: { id: 'asc' } });
    return rows.map(({ kind, amount }) => ({ kind, amount }));
  }

  it('submits once, stores the handle before the first poll, and a re-run polls instead of resubmitting', async () => {
    const { processor, adapter, settled, clock } = harness();
    const task = await queuedTask();

    const first = await processor.runStep(task.id);
    expect(first.kind).toBe('wait');
    expect(adapter.submissions).toEqual([
      { upstreamModel: 'gamma-2-upstream', request: { prompt: 'waves at dusk', seconds: 5 } },
    ]);
    expect(adapter.polls).toHaveLength(0);
    const submitted = await store.findById(task.id);
    expect(submitted).toMatchObject({ status: 'processing', upstreamHandle: { upstreamId: 'up-1' } });

    adapter.pollScript = [
      { state: 'pending', progress: 40 },
      { state: 'completed', outputs: [{ url: 'http://upstream.test/v.mp4' }], warnings: [] },
    ];
    // Progress is written once the write interval has passed since the row's last write (the handle).
    clock.nowMs = Date.now() + TIMING.progressWriteIntervalMs;
    expect((await processor.runStep(task.id)).kind).toBe('wait');
    expect((await store.findById(task.id))?.progress).toBe(40);
    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'completed' });

    expect(adapter.submissions).toHaveLength(1);
    expect(adapter.polls).toEqual([{ upstreamId: 'up-1' }, { upstreamId: 'up-1' }]);
    expect(await store.findById(task.id)).toMatchObject({
      status: 'completed',
      progress: 100,
      resultUrl: 'http://upstream.test/v.mp4',
    });
    expect(settled.map((entry) => entry.taskId)).toEqual([task.id]);
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([{ kind: 'capture', amount: HOLD_MICROS }]);

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'completed' });
    expect(adapter.polls).toHaveLength(2);
  });

  it('submits the inline images, then keeps only markers of them on the row with the handle', async () => {
    const { processor, adapter } = harness();
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(2_000)}`;
    const task = await queuedTask({ request: { prompt: 'waves at dusk', images: [image], seconds: 5 } });

    expect((await processor.runStep(task.id)).kind).toBe('wait');

    expect(adapter.submissions[0].request).toEqual({ prompt: 'waves at dusk', images: [image], seconds: 5 });
    expect(await store.findById(task.id)).toMatchObject({
      status: 'processing',
      upstreamHandle: { upstreamId: 'up-1' },
      request: {
        prompt: 'waves at dusk',
        images: [`[inline input of ${image.length} characters, dropped once the upstream accepted the task]`],
        seconds: 5,
      },
    });
  });

  it('keeps the inline images while the upstream has not accepted the task', async () => {
    const { processor, adapter } = harness();
    adapter.submitFailure = new UpstreamError({
      kind: 'rate_limit',
      retryable: true,
      httpStatus: 429,
      message: 'slow down',
    });
    adapter.idempotentSubmit = true;
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(2_000)}`;
    const task = await queuedTask({ request: { prompt: 'waves at dusk', images: [image] } });

    expect((await processor.runStep(task.id)).kind).toBe('wait');

    expect((await store.findById(task.id))?.request).toEqual({ prompt: 'waves at dusk', images: [image] });
  });

  it('drops the inline inputs of a task that ends before any upstream took it, wherever they sit', async () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(2_000)}`;
    const rawBase64 = 'QUJD'.repeat(20_000);
    const request = {
      prompt: 'p'.repeat(32_000),
      images: [image, 'https://example.test/a.png', 'data:image/png;base64,iVBO'],
      metadata: { last_frame_url: image, note: 'n'.repeat(60_000), seconds: 5 },
      binary_data_base64: [rawBase64],
    };
    const task = await queuedTask({ request });

    expect(await store.transition(task.id, 'queued', 'cancelled', { failureReason: 'cancelled' })).toBe(true);

    const marker = (length: number) =>
      `[inline input of ${length} characters, dropped once the upstream accepted the task]`;
    expect((await store.findById(task.id))?.request).toEqual({
      ...request,
      images: [marker(image.length), 'https://example.test/a.png', 'data:image/png;base64,iVBO'],
      metadata: { last_frame_url: marker(image.length), note: 'n'.repeat(60_000), seconds: 5 },
      binary_data_base64: [marker(rawBase64.length)],
    });
  });

  it('lets only the winner of two racing processors settle', async () => {
    const adapter = new FakeTaskAdapter();
    const one = harness(adapter);
    const two = harness(adapter);
    const task = await queuedTask();
    await one.processor.runStep(task.id);
    adapter.pollScript = [
      { state: 'completed', outputs: [{ url: 'http://upstream.test/one.mp4' }], warnings: [] },
      { state: 'completed', outputs: [{ url: 'http://upstream.test/two.mp4' }], warnings: [] },
    ];

    const results = await Promise.all([one.processor.runStep(task.id), two.processor.runStep(task.id)]);

    expect(results).toEqual([
      { kind: 'finished', status: 'completed' },
      { kind: 'finished', status: 'completed' },
    ]);
    expect(one.settled.length + two.settled.length).toBe(1);
    const captures = (await ledgerOf(task.holdRequestId ?? '')).filter((entry) => entry.kind === 'capture');
    expect(captures).toEqual([{ kind: 'capture', amount: HOLD_MICROS }]);
  });

  it('settles a finished task whose worker died before settling, once however often it re-runs', async () => {
    const { processor } = harness();
    const task = await queuedTask();
    // The worker won the terminal transition, then died before its settlement.
    expect(await store.transition(task.id, 'queued', 'processing')).toBe(true);
    expect(
      await store.transition(task.id, 'processing', 'completed', {
        resultUrl: 'http://upstream.test/done.mp4',
      }),
    ).toBe(true);
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect((await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } }))?.status).toBe(
      'open',
    );

    await processor.runStep(task.id);
    await processor.runStep(task.id);

    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([{ kind: 'capture', amount: HOLD_MICROS }]);
  });

  it('releases on a re-run the hold of a task cancelled before its release, its log row ending cancelled', async () => {
    const { processor, released } = harness();
    const task = await queuedTask();
    // The canceller won its transition, then died before its release.
    expect(await store.transition(task.id, 'queued', 'cancelled')).toBe(true);

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });
    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });

    expect(released).toEqual([task.holdRequestId, task.holdRequestId]);
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect(await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } })).toMatchObject({
      status: 'settled',
    });
    const logs = await prisma.requestLog.findMany({ where: { requestId: task.holdRequestId ?? '' } });
    expect(logs).toMatchObject([{ endReason: TASK_CANCELLED_END_REASON, costMicros: 0n }]);
  });

  it('settles on a re-run a task its upstream failed before its settlement, its log row ending upstream_error', async () => {
    const { processor, settled, released } = harness();
    const failedUpstream = await queuedTask();
    const abandoned = await queuedTask();
    // Each worker won its failure transition, then died before its settlement: one on an upstream's
    // answer, one on the gateway's own reason.
    for (const [task, failureReason] of [
      [failedUpstream, 'content_policy: prompt refused'],
      [abandoned, DEADLINE_EXCEEDED],
    ] as const) {
      expect(await store.transition(task.id, 'queued', 'failed', { failureReason })).toBe(true);
      expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });
    }

    expect(settled).toMatchObject([
      { taskId: failedUpstream.id, outcome: { state: 'failed', failure: { kind: 'content_policy' } } },
    ]);
    expect(released).toEqual([abandoned.holdRequestId]);
    const endReasons = await prisma.requestLog.findMany({
      where: { requestId: { in: [failedUpstream.id, abandoned.id] } },
      select: { requestId: true, endReason: true, costMicros: true },
    });
    expect(new Map(endReasons.map((row) => [row.requestId, [row.endReason, row.costMicros]]))).toEqual(
      new Map([
        [failedUpstream.id, ['upstream_error', 0n]],
        [abandoned.id, [TASK_ABANDONED_END_REASON, 0n]],
      ]),
    );
  });

  it('captures on a re-run the images stored with the terminal transition, not what the row can re-read', async () => {
    const perImageMicros = 20_000n;
    const task = await queuedTask({
      kind: 'image',
      priceSnapshot: toImageTaskPriceSnapshot({ tier: { size: '1k' }, perCallMicros: 0n, perImageMicros }),
    });
    const dying = harness(new FakeTaskAdapter(), undefined, true);
    await dying.processor.runStep(task.id);
    dying.adapter.pollScript = [
      {
        state: 'completed',
        outputs: [{ url: 'http://upstream.test/a.png' }, { url: 'http://upstream.test/b.png' }],
        usage: { images: { count: 2 } },
        warnings: [],
      },
    ];
    await expect(dying.processor.runStep(task.id)).rejects.toThrow('worker died');
    expect(await store.findById(task.id)).toMatchObject({ status: 'completed', imageCount: 2 });
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);

    const { processor } = harness();
    await processor.runStep(task.id);
    await processor.runStep(task.id);

    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([
      { kind: 'capture', amount: 2n * perImageMicros },
    ]);
    const [log] = await prisma.requestLog.findMany({ where: { requestId: task.holdRequestId ?? '' } });
    expect(log).toMatchObject({ imageCount: 2, costMicros: 2n * perImageMicros });
  });

  it('fails a task past its deadline and releases its hold without calling the upstream', async () => {
    const { processor, adapter, released } = harness();
    const task = await queuedTask({ deadlineInMs: -1_000 });

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });

    expect(await store.findById(task.id)).toMatchObject({
      status: 'failed',
      failureReason: DEADLINE_EXCEEDED,
    });
    expect(adapter.submissions).toHaveLength(0);
    expect(released).toEqual([task.holdRequestId]);
    // Released in full: the hold is settled and no money moved, so no ledger row.
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect(await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } })).toMatchObject({
      status: 'settled',
    });
  });

  it('asks the upstream once more at the deadline when it has a handle, and keeps a late completion', async () => {
    const { processor, adapter, clock, released } = harness();
    const task = await queuedTask({ deadlineInMs: 60_000 });
    await processor.runStep(task.id);
    clock.nowMs += 120_000;
    adapter.pollScript = [
      { state: 'completed', outputs: [{ url: 'http://upstream.test/late.mp4' }], warnings: [] },
    ];

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'completed' });
    expect(released).toEqual([]);
  });

  it('fails a task still pending upstream at its deadline after that last poll', async () => {
    const { processor, adapter, clock, released } = harness();
    const task = await queuedTask({ deadlineInMs: 60_000 });
    await processor.runStep(task.id);
    clock.nowMs += 120_000;
    adapter.pollScript = [{ state: 'pending', progress: 90 }];

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });
    expect(adapter.polls).toHaveLength(1);
    expect((await store.findById(task.id))?.failureReason).toBe(DEADLINE_EXCEEDED);
    expect(released).toEqual([task.holdRequestId]);
  });

  it('fails a task whose channel type has no asynchronous adapter and releases its hold', async () => {
    const { processor, released } = harness();
    const task = await queuedTask({ channelId: 'chan_lambda' });

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });

    expect((await store.findById(task.id))?.failureReason).toBe(
      'no asynchronous adapter for channel type lambda',
    );
    expect(released).toEqual([task.holdRequestId]);
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect((await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } }))?.status).toBe(
      'settled',
    );
  });

  it('fails the task on an upstream refusal of the submission and releases through settle', async () => {
    const { processor, adapter, settled } = harness();
    adapter.submitFailure = new UpstreamError({
      kind: 'content_policy',
      retryable: false,
      httpStatus: 400,
      message: 'prompt refused',
    });
    const task = await queuedTask();

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });
    expect((await store.findById(task.id))?.failureReason).toBe('content_policy: prompt refused');
    expect(settled.map((entry) => entry.outcome.state)).toEqual(['failed']);
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect((await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } }))?.status).toBe(
      'settled',
    );
  });

  it('never resubmits a submission whose outcome is unknown when the upstream cannot be asked', async () => {
    const { processor, adapter, clock, released } = harness();
    adapter.submitFailure = new UpstreamError({ kind: 'timeout', retryable: true, message: 'no answer' });
    const task = await queuedTask();

    expect(await processor.runStep(task.id)).toEqual({ kind: 'wait', delayMs: TIMING.submissionTimeoutMs });
    adapter.submitFailure = undefined;
    const early = await processor.runStep(task.id);
    expect(early.kind).toBe('wait');
    expect(adapter.submissions).toHaveLength(1);

    clock.nowMs += TIMING.submissionTimeoutMs + 1_000;
    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'failed' });
    expect((await store.findById(task.id))?.failureReason).toBe(SUBMISSION_OUTCOME_UNKNOWN);
    expect(adapter.submissions).toHaveLength(1);
    expect(released).toEqual([task.holdRequestId]);
  });

  it('adopts the upstream task an interrupted submission created, or resubmits once when there is none', async () => {
    const adapter = new FakeTaskAdapter();
    const lookups: string[] = [];
    const known = new Map<string, TaskSubmission>();
    adapter.findSubmission = async (key) => {
      lookups.push(key);
      return known.get(key);
    };
    const { processor, clock } = harness(adapter);
    const adopted = await queuedTask();
    const resubmitted = await queuedTask();
    for (const task of [adopted, resubmitted]) await store.transition(task.id, 'queued', 'processing');
    known.set(adopted.id, { handle: { upstreamId: 'found-upstream' } });
    clock.nowMs += TIMING.submissionTimeoutMs + 1_000;

    expect((await processor.runStep(adopted.id)).kind).toBe('wait');
    expect((await store.findById(adopted.id))?.upstreamHandle).toEqual({ upstreamId: 'found-upstream' });
    expect(adapter.submissions).toHaveLength(0);

    expect((await processor.runStep(resubmitted.id)).kind).toBe('wait');
    expect(adapter.submissions).toHaveLength(1);
    expect((await store.findById(resubmitted.id))?.upstreamHandle).toEqual({ upstreamId: 'up-1' });
    expect(lookups).toEqual([adopted.id, resubmitted.id]);
  });

  it('waits as the upstream asks after a retryable poll failure, within the bounds', async () => {
    const adapter = new FakeTaskAdapter();
    adapter.poll = async () => {
      throw new UpstreamError({
        kind: 'rate_limit',
        retryable: true,
        httpStatus: 429,
        retryAfterMs: 7_000,
        message: 'slow down',
      });
    };
    const { processor } = harness(adapter);
    const task = await queuedTask();
    await processor.runStep(task.id);

    expect(await processor.runStep(task.id)).toMatchObject({ kind: 'wait', delayMs: 7_000 });
    expect((await store.findById(task.id))?.status).toBe('processing');
  });

  it('re-schedules its own BullMQ job while the upstream is pending', async () => {
    const { processor, clock } = harness();
    const task = await queuedTask();
    const delayedUntil: number[] = [];
    const job = {
      data: { taskId: task.id } as TaskStepJob,
      moveToDelayed: async (timestamp: number) => {
        delayedUntil.push(timestamp);
      },
      updateData: async (data: TaskStepJob) => {
        job.data = data;
      },
    };

    const before = Date.now();
    await expect(runStepJob(processor, job, 'token-1')).rejects.toBeInstanceOf(DelayedError);
    expect(delayedUntil).toHaveLength(1);
    expect(delayedUntil[0]).toBeGreaterThanOrEqual(before + TIMING.minPollDelayMs);
    expect(delayedUntil[0]).toBeLessThanOrEqual(Date.now() + TIMING.maxPollDelayMs);

    // The job carries what a poll needs (no row read while nothing changes): a task cancelled meanwhile
    // is seen at the next check of the row.
    await prisma.task.update({ where: { id: task.id }, data: { status: 'cancelled' } });
    clock.nowMs += ROW_RECHECK_MS;
    await expect(processor.process(job, 'token-1')).resolves.toEqual({
      kind: 'finished',
      status: 'cancelled',
    });
  });
  describe('video tasks priced by the second', () => {
    const perCallMicros = 100_000n;
    const perSecondMicros = 50_000n;
    const heldSeconds = 8;
    const videoTask = () =>
      queuedTask({
        priceSnapshot: toVideoTaskPriceSnapshot({
          resolution: '720p',
          perCallMicros,
          perSecondMicros,
          heldSeconds,
        }),
        holdMicros: perCallMicros + BigInt(heldSeconds) * perSecondMicros,
      });
    const completedVideo = (seconds?: number): TaskPollResult => ({
      state: 'completed',
      outputs: [{ url: 'http://upstream.test/clip.mp4', contentType: 'video/mp4' }],
      ...(seconds === undefined ? {} : { usage: { video: { seconds, resolution: '720p' } } }),
      warnings: [],
    });
    const logOf = async (taskId: string) =>
      prisma.requestLog.findUniqueOrThrow({ where: { requestId: taskId } });

    it('captures the seconds the upstream reports it produced, rounded up, and logs them under the task', async () => {
      const { processor, adapter } = harness();
      const task = await videoTask();
      await processor.runStep(task.id);
      adapter.pollScript = [completedVideo(5.2)];

      expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'completed' });

      const captured = perCallMicros + 6n * perSecondMicros;
      expect(await store.findById(task.id)).toMatchObject({ mediaSeconds: 6, imageCount: null });
      expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([{ kind: 'capture', amount: captured }]);
      expect(await logOf(task.id)).toMatchObject({
        mediaSeconds: 6,
        imageCount: 0,
        costMicros: captured,
        endReason: 'completed',
      });
    });

    it('captures the held seconds when the upstream does not say how long the video is', async () => {
      const { processor, adapter } = harness();
      const task = await videoTask();
      await processor.runStep(task.id);
      adapter.pollScript = [completedVideo(undefined)];

      await processor.runStep(task.id);

      expect((await store.findById(task.id))?.mediaSeconds).toBe(heldSeconds);
      expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([
        { kind: 'capture', amount: perCallMicros + BigInt(heldSeconds) * perSecondMicros },
      ]);
      expect((await logOf(task.id)).mediaSeconds).toBe(heldSeconds);
    });

    it('captures on a settlement re-run the seconds stored with the terminal transition', async () => {
      const task = await videoTask();
      const dying = harness(new FakeTaskAdapter(), undefined, true);
      await dying.processor.runStep(task.id);
      dying.adapter.pollScript = [completedVideo(3)];
      await expect(dying.processor.runStep(task.id)).rejects.toThrow('worker died');
      expect(await store.findById(task.id)).toMatchObject({ status: 'completed', mediaSeconds: 3 });

      // The re-run knows only the row: without the stored seconds it would capture the held 8.
      const { processor } = harness();
      await processor.runStep(task.id);
      await processor.runStep(task.id);

      expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([
        { kind: 'capture', amount: perCallMicros + 3n * perSecondMicros },
      ]);
      expect((await logOf(task.id)).mediaSeconds).toBe(3);
    });
  });

  describe('video tasks priced by tokens', () => {
    const perCallMicros = 10_000n;
    const outputPerMillionMicros = 2_000_000n;
    const heldTokens = 108_000;
    const heldMicros = perCallMicros + (BigInt(heldTokens) * outputPerMillionMicros) / 1_000_000n;

    it('captures on a settlement re-run the tokens stored with the terminal transition, not the held estimate', async () => {
      const task = await queuedTask({
        priceSnapshot: toVideoTaskPriceSnapshot({
          resolution: '720p',
          perCallMicros,
          perSecondMicros: 0n,
          heldSeconds: 5,
          tokens: { inputPerMillionMicros: 0n, outputPerMillionMicros, heldTokens },
        }),
        holdMicros: heldMicros,
      });
      const dying = harness(new FakeTaskAdapter(), undefined, true);
      await dying.processor.runStep(task.id);
      dying.adapter.pollScript = [
        {
          state: 'completed',
          outputs: [{ url: 'http://upstream.test/clip.mp4', contentType: 'video/mp4' }],
          usage: { tokens: { inputTokens: 0, outputTokens: 54_000 } },
          warnings: [],
        },
      ];
      await expect(dying.processor.runStep(task.id)).rejects.toThrow('worker died');
      expect(await store.findById(task.id)).toMatchObject({ status: 'completed', outputTokens: 54_000 });

      // The re-run knows only the row: without the stored tokens it would capture the held 108,000.
      const { processor } = harness();
      await processor.runStep(task.id);

      expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([
        { kind: 'capture', amount: perCallMicros + (54_000n * outputPerMillionMicros) / 1_000_000n },
      ]);
      const log = await prisma.requestLog.findUniqueOrThrow({ where: { requestId: task.id } });
      expect(log.outputTokens).toBe(54_000);
    });
  });

  describe('an interrupted submission to an upstream that de-duplicates by the submission key', () => {
    function idempotentAdapter(): FakeTaskAdapter {
      const adapter = new FakeTaskAdapter();
      adapter.idempotentSubmit = true;
      return adapter;
    }

    it('is resubmitted under the same key once the submission timeout passed, not before', async () => {
      const adapter = idempotentAdapter();
      const { processor, clock } = harness(adapter);
      const task = await queuedTask();
      // A worker claimed the task and died before the upstream's answer was stored.
      await store.transition(task.id, 'queued', 'processing');

      expect((await processor.runStep(task.id)).kind).toBe('wait');
      expect(adapter.submissions).toHaveLength(0);

      clock.nowMs += TIMING.submissionTimeoutMs + 1_000;
      expect((await processor.runStep(task.id)).kind).toBe('wait');
      expect(adapter.submissions).toHaveLength(1);
      expect(await store.findById(task.id)).toMatchObject({
        status: 'processing',
        upstreamHandle: { upstreamId: 'up-1' },
      });
    });

    it('is resubmitted by one of two processors recovering it at once', async () => {
      const adapter = idempotentAdapter();
      const clock = { nowMs: Date.now() + TIMING.submissionTimeoutMs + 1_000, now: () => 0 };
      const one = harness(adapter, clock);
      const two = harness(adapter, clock);
      const task = await queuedTask();
      await store.transition(task.id, 'queued', 'processing');

      const results = await Promise.all([one.processor.runStep(task.id), two.processor.runStep(task.id)]);

      expect(results.map((result) => result.kind)).toEqual(['wait', 'wait']);
      expect(adapter.submissions).toHaveLength(1);
      expect((await store.findById(task.id))?.upstreamHandle).toEqual({ upstreamId: 'up-1' });
    });
  });

  it('ends cancelled, its hold released, a task whose upstream reports it cancelled', async () => {
    // The gateway's cancel told the upstream, and this poll ran before its own transition: the row
    // ends as the canceller would have ended it, and the canceller's compare-and-swap then loses.
    const { processor, adapter, settled } = harness();
    const task = await queuedTask();
    await processor.runStep(task.id);
    adapter.pollScript = [
      {
        state: 'failed',
        cancelled: true,
        failure: { kind: 'bad_request', retryable: false, message: 'the upstream cancelled the video' },
      },
    ];

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });
    expect(await store.transition(task.id, 'processing', 'cancelled')).toBe(false);
    expect(settled).toHaveLength(1);
    expect(await store.findById(task.id)).toMatchObject({ status: 'cancelled', resultUrl: null });
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect(await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } })).toMatchObject({
      status: 'settled',
    });
    // Its log row reads as the canceller's release would have written it.
    expect(
      await prisma.requestLog.findFirst({ where: { requestId: task.holdRequestId ?? '' } }),
    ).toMatchObject({ endReason: TASK_CANCELLED_END_REASON, costMicros: 0n });
  });

  it('settles nothing when the gateway cancels the task while its worker polls', async () => {
    const { processor, adapter, settled, released } = harness();
    const task = await queuedTask();
    await processor.runStep(task.id);
    // The client's DELETE lands while the poll is in flight: the gateway's compare-and-swap to
    // cancelled wins, and the gateway releases the hold.
    adapter.duringPoll = async () => {
      expect(await store.transition(task.id, 'processing', 'cancelled')).toBe(true);
      await taskSettlement.releaseHold(task.holdRequestId ?? '');
    };
    adapter.pollScript = [
      { state: 'completed', outputs: [{ url: 'http://upstream.test/too-late.mp4' }], warnings: [] },
    ];

    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });
    adapter.duringPoll = undefined;
    expect(await processor.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });

    expect(settled).toEqual([]);
    expect(await store.findById(task.id)).toMatchObject({ status: 'cancelled', resultUrl: null });
    expect(await ledgerOf(task.holdRequestId ?? '')).toEqual([]);
    expect(await prisma.hold.findUnique({ where: { requestId: task.holdRequestId ?? '' } })).toMatchObject({
      status: 'settled',
    });
    // The re-run of a cancelled task only makes sure the hold is released; it was, so nothing changed.
    expect(released).toEqual([task.holdRequestId]);
    expect(await prisma.requestLog.count({ where: { requestId: task.holdRequestId ?? '' } })).toBe(1);
  });
});
