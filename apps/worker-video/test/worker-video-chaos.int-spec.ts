import { SettlementService } from '@gateway/billing';
import { LedgerAudit } from '@gateway/billing/ledger-audit';
import { createLogger } from '@gateway/observability';
import { taskAdaptersByType } from '@gateway/providers';
import { createUndiciHttpClient, systemClock } from '@gateway/providers-core';
import { startSimulator, type IdempotentCreateCount, type JournalEntry } from '@gateway/simulators';
import {
  createRegistryChannelConnector,
  PrismaTaskChannelResolver,
  TaskSettlementService,
  TaskStepProcessor,
  TaskStore,
  type TaskStepResult,
} from '@gateway/tasks';
import { waitFor } from '@gateway/testing';
import { VideoTaskSeed } from './video-task.seed';
import { killDuringSubmission, runWorkerChaos } from './worker-chaos';
import { useWorkerVideoSuite } from './worker-video-suite';

const TASK_COUNT = 200;

describe('worker-video under SIGKILL (production build, Postgres, Redis, compat simulator)', () => {
  const suite = useWorkerVideoSuite({
    name: 'video-chaos',
    startSimulator,
    seedOf: (harness) => new VideoTaskSeed(harness),
  });

  async function createsByKey(): Promise<Record<string, IdempotentCreateCount>> {
    const response = await fetch(`${suite.simulator.url}/__sim/videos/creates`);
    return (await response.json()) as Record<string, IdempotentCreateCount>;
  }

  /** Create requests the simulator received for a task (its Idempotency-Key), answered or not yet. */
  async function createRequestsOf(taskId: string): Promise<number> {
    const response = await fetch(`${suite.simulator.url}/__sim/requests?limit=100`);
    const journal = (await response.json()) as JournalEntry[];
    return journal.filter(
      (entry) =>
        entry.method === 'POST' && entry.path === '/v1/videos' && entry.headers['idempotency-key'] === taskId,
    ).length;
  }

  it('completes every task once, with one upstream video each, while one of two workers is SIGKILLed every few seconds', async () => {
    const { harness, seed } = suite;
    const { tasks, kills, steady } = await runWorkerChaos(harness, {
      taskCount: TASK_COUNT,
      waveSize: 20,
      waveIntervalMs: 700,
      limitMs: 150_000,
      accountId: seed.accountId,
      create: (wave, index) =>
        // Creates answer in 0.8 s, so some kills land between a submission and its stored handle.
        seed.create(`a lighthouse, take ${wave}.${index} [[sim task_ms=${2_000 + index * 150};latency=800]]`),
    });
    expect(steady.running).toBe(true);

    // 0 tasks lost: every task completed, none failed or left open.
    const rows = await harness.prisma.task.findMany({
      where: { id: { in: tasks.map((task) => task.taskId) } },
      select: { id: true, status: true, mediaSeconds: true, failureReason: true },
    });
    expect(rows).toHaveLength(TASK_COUNT);
    expect(rows.filter((row) => row.status !== 'completed')).toEqual([]);

    // 0 duplicate upstream creates: one video per task, whatever the resubmissions.
    const creates = await createsByKey();
    for (const { taskId } of tasks) expect(creates[taskId]?.created).toBe(1);

    // Every hold settled exactly once, each capturing the seconds produced at the admitted price.
    const holds = await harness.prisma.hold.findMany({ where: { accountId: seed.accountId } });
    expect(holds.filter((hold) => hold.status !== 'settled')).toEqual([]);
    const captures = await harness.prisma.ledgerEntry.findMany({
      where: { accountId: seed.accountId, kind: 'capture' },
      select: { requestId: true, amount: true },
    });
    expect(captures).toHaveLength(TASK_COUNT);
    const expected = new Map(tasks.map((task) => [task.taskId, task.heldMicros]));
    for (const capture of captures) expect(capture.amount).toBe(expected.get(capture.requestId ?? ''));
    const logs = await harness.prisma.requestLog.findMany({
      where: { accountId: seed.accountId },
      select: { requestId: true, mediaSeconds: true, endReason: true },
    });
    expect(logs).toHaveLength(TASK_COUNT);
    expect(logs.filter((log) => log.endReason !== 'completed' || log.mediaSeconds !== 4)).toEqual([]);

    // The books balance: balance = credits − captures, nothing held.
    const books = await new LedgerAudit(harness.prisma).auditAccount(seed.accountId);
    expect(books).toMatchObject({ balanced: true, held: 0n, openHolds: 0n });
    expect(books.captures).toBe(tasks.reduce((sum, task) => sum + task.heldMicros, 0n));

    const replays = Object.values(creates).reduce((sum, count) => sum + count.requests - count.created, 0);
    process.stdout.write(`video chaos: ${kills} kills, ${replays} idempotent resubmissions\n`);
  }, 300_000);

  it('resubmits a creation its worker was killed during, under the same Idempotency-Key: one video', async () => {
    const { harness, seed } = suite;
    // The create answers after 3 s: the worker is killed while it waits for the answer.
    const {
      task: { taskId, heldMicros },
      rowAtKill,
    } = await killDuringSubmission(
      harness,
      () => seed.create('a kite cut loose [[sim latency=3000;polls=1]]'),
      createRequestsOf,
    );
    expect(rowAtKill).toMatchObject({ status: 'processing', upstreamHandle: null });

    expect(await harness.prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({
      status: 'completed',
    });
    // The killed worker's create and at least one resubmission. On a loaded machine a lock renewal of
    // the resubmitting worker can come late (the create answers after 3 s, the lock lasts 2), and the
    // job is retried once more under the same Idempotency-Key: still one video, checked next.
    expect(await createRequestsOf(taskId)).toBeGreaterThanOrEqual(2);
    expect((await createsByKey())[taskId]?.created).toBe(1);
    expect(await harness.prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toMatchObject([
      { kind: 'capture', amount: heldMicros },
    ]);
  });

  it('settles a task once when two processors step it at the same time until it ends', async () => {
    const { harness, seed } = suite;
    // Counts the settlements that applied: a re-run of a finished task settles again, as a no-op.
    const billing = new SettlementService(harness.pool);
    const applied: string[] = [];
    const settlement = new TaskSettlementService(
      {
        settleRowHolds: async (items) => {
          const result = await billing.settleRowHolds(items);
          applied.push(...result.appliedRequestIds);
          return result;
        },
      },
      harness.prisma,
    );
    const http = createUndiciHttpClient();
    const logger = createLogger({ level: 'silent', name: 'video-chaos-test' });
    const processor = () =>
      new TaskStepProcessor({
        store: new TaskStore(harness.prisma, harness.pool),
        adapters: taskAdaptersByType(),
        channels: new PrismaTaskChannelResolver(
          harness.prisma,
          createRegistryChannelConnector({
            keyring: new Map([[1, harness.masterKey]]),
            http,
            clock: systemClock,
            logger,
          }),
        ),
        releaseHold: (holdRequestId) => settlement.releaseHold(holdRequestId),
        settle: (task, outcome) => settlement.settle(task, outcome),
        clock: systemClock,
        logger,
      });
    const [one, two] = [processor(), processor()];
    const { taskId, heldMicros } = await seed.create('two hands on one kite [[sim polls=3]]', 4, {
      enqueue: false,
    });

    let results: TaskStepResult[] = [];
    await waitFor(async () => {
      results = await Promise.all([one.runStep(taskId), two.runStep(taskId)]);
      return results.every((result) => result.kind === 'finished');
    });
    await http.close();

    expect(results).toEqual([
      { kind: 'finished', status: 'completed' },
      { kind: 'finished', status: 'completed' },
    ]);
    expect(applied).toEqual([taskId]);
    expect(await harness.prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toMatchObject([
      { kind: 'capture', amount: heldMicros },
    ]);
    expect((await createsByKey())[taskId]).toMatchObject({ requests: 1, created: 1 });
  });
});
