import type { Task } from '@gateway/db';
import {
  UpstreamError,
  type AdapterContext,
  type TaskAdapter,
  type TaskPollResult,
  type TaskSubmission,
} from '@gateway/providers-core';
import type { JsonHandle } from './json-value';
import { PrismaTaskChannelResolver } from './prisma-task-channel.resolver';
import { TaskCanceller } from './task-canceller';
import type { TaskSettlementService } from './task-settlement.service';
import { TaskStepProcessor } from './task-step.processor';
import { openTaskDatabase, type TaskDatabase } from '../testing/task-database.fixture';
import { allowConnections, refuseConnections, TEST_POSTGRES_ADMIN_URL } from '@gateway/testing';
import { Client } from 'pg';

const HOLD_MICROS = 5_000_000n;
const silentLogger = { info: () => undefined, warn: () => undefined };

/** What a poll answers once the upstream's record is gone (a wire's cancel deletes it): 404. */
const RECORD_GONE_FAILURE = {
  kind: 'bad_request',
  retryable: false,
  httpStatus: 404,
  message: 'video not found',
} as const;
const RECORD_GONE: TaskPollResult = { state: 'failed', failure: RECORD_GONE_FAILURE };

/** What a wire's cancel throws when the upstream is too busy to stop the task. */
const busyUpstream = () =>
  new UpstreamError({ kind: 'overload', retryable: true, httpStatus: 503, message: 'busy' });

/** An upstream in memory whose wire can cancel; `duringPoll` and `duringCancel` run inside those calls. */
class CancellableAdapter implements TaskAdapter {
  readonly cancels: JsonHandle[] = [];
  pollAnswer: TaskPollResult = { state: 'pending' };
  /** Thrown by a poll instead of answering, when set. */
  pollFailure?: UpstreamError;
  cancelFailure?: unknown;
  duringPoll?: () => Promise<void>;
  duringCancel?: () => Promise<void>;

  async submit(): Promise<TaskSubmission> {
    throw new Error('the canceller never submits');
  }

  async poll(): Promise<TaskPollResult> {
    await this.duringPoll?.();
    if (this.pollFailure) throw this.pollFailure;
    return this.pollAnswer;
  }

  async cancel(handle: JsonHandle): Promise<void> {
    this.cancels.push(handle);
    await this.duringCancel?.();
    if (this.cancelFailure !== undefined) throw this.cancelFailure;
  }
}

/** TaskCanceller's operator cancel against real Postgres: the row, the hold and the ledger it leaves. */
describe('TaskCanceller.cancelForOperator (Postgres)', () => {
  let db: TaskDatabase;
  let sequence = 0;

  beforeAll(async () => {
    db = await openTaskDatabase(6);
    await db.prisma.account.create({ data: { id: 'acct_cancel', name: 'cancel', balance: 1_000_000_000n } });
    await db.createChannel({ id: 'chan_compat', type: 'compat', models: [{ model: 'delta-2' }] });
  });

  afterAll(() => db.close());

  /** A canceller and a worker's step processor over one store and one upstream. */
  function parts(adapter: CancellableAdapter) {
    const context = {
      channel: { baseUrl: 'http://127.0.0.1:9', credentials: { apiKey: 's' }, settings: {} },
    } as AdapterContext;
    const { store, settlement } = db;
    const shared = {
      store,
      adapters: new Map([['compat', adapter]]),
      channels: new PrismaTaskChannelResolver(db.prisma, async () => context),
      releaseHold: (holdRequestId: string, reason: Parameters<TaskSettlementService['releaseHold']>[1]) =>
        settlement.releaseHold(holdRequestId, reason),
      logger: silentLogger,
    };
    const worker = new TaskStepProcessor({
      ...shared,
      settle: (task, outcome) => settlement.settle(task, outcome),
      clock: { now: () => Date.now() },
    });
    const canceller = new TaskCanceller({
      ...shared,
      recordPoll: (task, result) => worker.recordPoll(task, result),
    });
    return { worker, canceller };
  }

  /** A task under a hold, as the gateway creates one; `submitted` moves it to the upstream. */
  async function heldTask(submitted: boolean): Promise<Task> {
    sequence += 1;
    const id = `video_cancel_${sequence}`;
    const taken = await db.holds.take({
      requestId: id,
      accountId: 'acct_cancel',
      keyId: 'key_cancel',
      model: 'delta-2',
      route: '/v1/videos',
      amount: HOLD_MICROS,
      ttlMs: 3_600_000,
    });
    expect(taken.ok).toBe(true);
    const { task } = await db.store.create({
      id,
      kind: 'video',
      keyId: 'key_cancel',
      accountId: 'acct_cancel',
      model: 'delta-2',
      channelId: 'chan_compat',
      request: { prompt: 'a slow sunrise', seconds: 5 },
      holdRequestId: id,
      deadlineAt: new Date(Date.now() + 600_000),
    });
    if (!submitted) return task;
    expect(await db.store.transition(id, 'queued', 'processing')).toBe(true);
    expect(await db.store.storeHandle(id, { videoId: `up_${sequence}` })).toBe(true);
    return (await db.store.findById(id)) as Task;
  }

  async function ledgerOf(requestId: string): Promise<string[]> {
    const rows = await db.prisma.ledgerEntry.findMany({ where: { requestId }, orderBy: { id: 'asc' } });
    return rows.map((row) => `${row.kind} ${row.amount}`);
  }

  it('wins against a worker that finds the upstream record its own cancel deleted', async () => {
    const adapter = new CancellableAdapter();
    const { worker, canceller } = parts(adapter);
    const task = await heldTask(true);
    // A worker's poll lands between the upstream's cancel and anything after it, and finds it gone.
    let workerRecorded: unknown;
    adapter.duringCancel = async () => {
      workerRecorded = await worker.recordPoll((await db.store.findById(task.id)) as Task, RECORD_GONE);
    };

    const outcome = await canceller.cancelForOperator(task, 'cancelled by admin: runaway job');

    expect(outcome).toEqual({ kind: 'cancelled', upstreamStopped: true });
    expect(adapter.cancels).toEqual([task.upstreamHandle]);
    expect(workerRecorded).toEqual({ kind: 'finished', status: 'cancelled' });
    expect(await db.store.findById(task.id)).toMatchObject({
      status: 'cancelled',
      failureReason: 'cancelled by admin: runaway job',
    });
    expect(await ledgerOf(task.id)).toEqual([]);
    expect((await db.prisma.hold.findUnique({ where: { requestId: task.id } }))?.status).toBe('settled');
  });

  it('records an upstream that finished first as finished, captured, and cancels nothing', async () => {
    const adapter = new CancellableAdapter();
    adapter.pollAnswer = {
      state: 'completed',
      outputs: [{ url: 'http://upstream.test/v.mp4' }],
      warnings: [],
    };
    const { canceller } = parts(adapter);
    const task = await heldTask(true);

    expect(await canceller.cancelForOperator(task, 'cancelled by admin: late')).toEqual({ kind: 'ended' });

    expect(adapter.cancels).toHaveLength(0);
    expect((await db.store.findById(task.id))?.status).toBe('completed');
    expect(await ledgerOf(task.id)).toEqual([`capture ${HOLD_MICROS}`]);
  });

  it('cancels the row and releases the hold when the upstream refuses to stop, and says so', async () => {
    const adapter = new CancellableAdapter();
    adapter.cancelFailure = busyUpstream();
    const { canceller } = parts(adapter);
    const task = await heldTask(true);

    const outcome = await canceller.cancelForOperator(task, 'cancelled by admin: stop it');

    expect(outcome).toEqual({ kind: 'cancelled', upstreamStopped: false });
    expect(adapter.cancels).toHaveLength(1);
    expect((await db.store.findById(task.id))?.status).toBe('cancelled');
    expect((await db.prisma.hold.findUnique({ where: { requestId: task.id } }))?.status).toBe('settled');
    expect(await ledgerOf(task.id)).toEqual([]);
  });

  it('cancels a queued task before any worker claims it, without calling the upstream', async () => {
    const adapter = new CancellableAdapter();
    const { canceller } = parts(adapter);
    const task = await heldTask(false);

    expect(await canceller.cancelForOperator(task, 'cancelled by admin: phone')).toEqual({
      kind: 'cancelled',
      upstreamStopped: true,
    });
    expect(adapter.cancels).toHaveLength(0);
    expect((await db.store.findById(task.id))?.status).toBe('cancelled');
    // A claim after the cancel finds nothing to submit.
    expect(await db.store.transition(task.id, 'queued', 'processing')).toBe(false);
  });

  describe("a client's cancel", () => {
    it('ends the task cancelled when a worker finds the upstream record its wire cancel deleted', async () => {
      const adapter = new CancellableAdapter();
      const { worker, canceller } = parts(adapter);
      const task = await heldTask(true);
      // The worker's poll lands between the upstream's cancel and the canceller's swap: the record is gone.
      let workerRecorded: unknown;
      adapter.duringCancel = async () => {
        workerRecorded = await worker.recordPoll(task, RECORD_GONE);
      };

      // The worker's transition came first, so the canceller's swap found the task ended.
      expect(await canceller.cancel(task, 'cancelled by the client')).toEqual({ kind: 'ended' });
      expect(adapter.cancels).toEqual([task.upstreamHandle]);
      expect(workerRecorded).toEqual({ kind: 'finished', status: 'cancelled' });
      expect(await db.store.findById(task.id)).toMatchObject({
        status: 'cancelled',
        failureReason: 'bad_request: the upstream deleted the task its client cancelled',
        cancelSentAt: expect.any(Date),
      });
      expect(await ledgerOf(task.id)).toEqual([]);
      expect((await db.prisma.hold.findUnique({ where: { requestId: task.id } }))?.status).toBe('settled');
    });

    it("ends a marked task cancelled too when a worker's step is refused with 404", async () => {
      const adapter = new CancellableAdapter();
      adapter.pollFailure = new UpstreamError(RECORD_GONE_FAILURE);
      const { worker } = parts(adapter);
      const task = await heldTask(true);
      expect(await db.store.markCancelSent(task.id, true)).toBe(true);

      expect(await worker.runStep(task.id)).toEqual({ kind: 'finished', status: 'cancelled' });
      expect((await db.store.findById(task.id))?.status).toBe('cancelled');
      expect((await db.prisma.hold.findUnique({ where: { requestId: task.id } }))?.status).toBe('settled');
    });

    it('leaves a lost record that no cancel deleted a failure', async () => {
      const { worker } = parts(new CancellableAdapter());
      const task = await heldTask(true);

      expect(await worker.recordPoll(task, RECORD_GONE)).toEqual({ kind: 'finished', status: 'failed' });
      expect(await db.store.findById(task.id)).toMatchObject({
        status: 'failed',
        failureReason: 'bad_request: video not found',
        cancelSentAt: null,
      });
    });

    it('clears its mark when the wire refuses, so that a record lost later fails the task', async () => {
      const adapter = new CancellableAdapter();
      adapter.cancelFailure = busyUpstream();
      const { worker, canceller } = parts(adapter);
      const task = await heldTask(true);

      expect(await canceller.cancel(task, 'cancelled by the client')).toMatchObject({ kind: 'refused' });
      expect(await db.store.findById(task.id)).toMatchObject({ status: 'processing', cancelSentAt: null });
      expect(await worker.recordPoll(task, RECORD_GONE)).toEqual({ kind: 'finished', status: 'failed' });
    });

    it("leaves another cancel's mark when its own first poll is refused, before it marks anything", async () => {
      const adapter = new CancellableAdapter();
      adapter.pollFailure = busyUpstream();
      const { canceller } = parts(adapter);
      const task = await heldTask(true);
      // A concurrent cancel has marked the row and is at the wire.
      expect(await db.store.markCancelSent(task.id, true)).toBe(true);

      expect(await canceller.cancel(task, 'cancelled by the client')).toMatchObject({ kind: 'refused' });
      expect(adapter.cancels).toEqual([]);
      expect(await db.store.findById(task.id)).toMatchObject({
        status: 'processing',
        cancelSentAt: expect.any(Date),
      });
    });

    describe('with Postgres going down in the middle', () => {
      let postgres: Client;

      beforeAll(async () => {
        postgres = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
        await postgres.connect();
      });
      afterEach(() => allowConnections(postgres, db.name));
      afterAll(() => postgres.end());

      const holdStatusOf = async (task: Task) =>
        (await db.prisma.hold.findUnique({ where: { requestId: task.id } }))?.status;

      /**
       * A cancel whose wire refuses, with Postgres going down during that call: it fails (the route's
       * 503) with its mark set. Postgres is back when this returns.
       */
      async function cancelRefusedWhilePostgresGoesDown() {
        const adapter = new CancellableAdapter();
        adapter.cancelFailure = busyUpstream();
        const { worker, canceller } = parts(adapter);
        const task = await heldTask(true);
        adapter.duringCancel = () => refuseConnections(postgres, db.name);
        await expect(canceller.cancel(task, 'cancelled by the client')).rejects.toThrow();
        await allowConnections(postgres, db.name);
        adapter.duringCancel = undefined;
        return { adapter, worker, canceller, task };
      }

      it('fails without asking the wire when Postgres is down as it marks the row, and changes nothing', async () => {
        const adapter = new CancellableAdapter();
        const { canceller } = parts(adapter);
        const task = await heldTask(true);
        // The upstream answered its poll (pending); the mark is the next statement.
        adapter.duringPoll = () => refuseConnections(postgres, db.name);

        await expect(canceller.cancel(task, 'cancelled by the client')).rejects.toThrow();
        await allowConnections(postgres, db.name);

        expect(adapter.cancels).toEqual([]);
        expect(await db.store.findById(task.id)).toMatchObject({ status: 'processing', cancelSentAt: null });
        expect(await holdStatusOf(task)).toBe('open');
      });

      it('fails and keeps its mark when Postgres is down as it clears it after the wire refused', async () => {
        // The client is told the gateway failed (the route's 503), not that the cancel was refused.
        const { adapter, worker, task } = await cancelRefusedWhilePostgresGoesDown();

        expect(adapter.cancels).toEqual([task.upstreamHandle]);
        expect(await db.store.findById(task.id)).toMatchObject({
          status: 'processing',
          cancelSentAt: expect.any(Date),
        });
        expect(await holdStatusOf(task)).toBe('open');
        // What the leftover mark changes: a record the upstream loses later ends the task cancelled
        // instead of failed. The money is the same either way: the whole hold released, nothing captured.
        expect(await worker.recordPoll(task, RECORD_GONE)).toEqual({ kind: 'finished', status: 'cancelled' });
        expect(await holdStatusOf(task)).toBe('settled');
        expect(await ledgerOf(task.id)).toEqual([]);
      });

      it("answers the client's retry once Postgres is back as the wire does, and clears the mark then", async () => {
        const { adapter, canceller, task } = await cancelRefusedWhilePostgresGoesDown();

        expect(await canceller.cancel(task, 'cancelled by the client')).toMatchObject({ kind: 'refused' });
        expect(adapter.cancels).toEqual([task.upstreamHandle, task.upstreamHandle]);
        expect(await db.store.findById(task.id)).toMatchObject({ status: 'processing', cancelSentAt: null });
      });
    });
  });

  it('answers ended for a task that has already ended, touching nothing', async () => {
    const adapter = new CancellableAdapter();
    const { canceller } = parts(adapter);
    const task = await heldTask(true);
    expect(
      await db.store.transition(task.id, 'processing', 'failed', { failureReason: 'upstream failed' }),
    ).toBe(true);

    expect(await canceller.cancelForOperator(task, 'cancelled by admin: x')).toEqual({ kind: 'ended' });
    expect(adapter.cancels).toHaveLength(0);
    expect((await db.store.findById(task.id))?.failureReason).toBe('upstream failed');
  });
});
