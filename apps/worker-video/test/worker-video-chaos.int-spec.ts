import { LedgerAudit, SettlementService } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createLogger } from '@gateway/observability';
import { taskAdaptersByType } from '@gateway/providers';
import { createUndiciHttpClient, systemClock } from '@gateway/providers-core';
import {
  startSimulator,
  type IdempotentCreateCount,
  type JournalEntry,
  type RunningSimulator,
} from '@gateway/simulators';
import {
  createRegistryChannelConnector,
  PrismaTaskChannelResolver,
  QUEUE_NAMES,
  TaskSettlementService,
  TaskStepProcessor,
  TaskStore,
  type TaskStepResult,
} from '@gateway/tasks';
import { BuiltApps, createTestDatabase, waitFor, type AppProcess, type TestDatabase } from '@gateway/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { VideoTaskSeed, type SeededVideoTask } from './video-task.seed';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MASTER_KEY = randomBytes(32);
const TASK_COUNT = 200;
/** Tasks arrive in waves while the workers are being killed, so kills land in every phase of a task. */
const WAVE_SIZE = 20;
const WAVE_INTERVAL_MS = 700;
/** A restarted worker takes about 1.5 s to boot: it works for the rest of the interval. */
const KILL_INTERVAL_MS = 4_000;
/** At least this many kills, however fast the tasks finish. */
const MIN_KILLS = 6;
const CREDIT_MICROS = 1_000_000_000n;
/** The chaos stops here even if tasks are still open: the assertions then say which. */
const CHAOS_LIMIT_MS = 150_000;

/**
 * Short bounds for the built worker: a killed worker's jobs are taken over after 2 s, an interrupted
 * submission is resubmitted (under the same Idempotency-Key) after 3 s, polls every 0.2–1 s, and a task
 * whose job was lost is found within a few seconds.
 */
function workerEnvironment(database: TestDatabase, prefix: string): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '8',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN: 'video-chaos-admin-token-0123',
    MASTER_KEY: MASTER_KEY.toString('hex'),
    LOG_LEVEL: 'warn',
    SHUTDOWN_GRACE_MS: '500',
    QUEUE_LOCK_DURATION_MS: '2000',
    QUEUE_STALLED_INTERVAL_MS: '500',
    VIDEO_WORKER_CONCURRENCY: '16',
    TASK_MIN_POLL_DELAY_MS: '200',
    TASK_MAX_POLL_DELAY_MS: '1000',
    TASK_SUBMISSION_TIMEOUT_MS: '3000',
    TASK_SWEEP_INTERVAL_MS: '2000',
    TASK_STRANDED_AFTER_MS: '5000',
  };
}

describe('worker-video under SIGKILL (production build, Postgres, Redis, compat simulator)', () => {
  let built: BuiltApps;
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let pool: Pool;
  let prisma: PrismaClient;
  let queue: Queue;
  let seed: VideoTaskSeed;
  let prefix: string;
  const running: AppProcess[] = [];

  beforeAll(async () => {
    built = BuiltApps.build();
    [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    pool = createPgPool(database.url, 8);
    prisma = createPrismaClient(pool);
    prefix = `test-video-chaos-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
    seed = new VideoTaskSeed(pool, prisma, queue);
    await seed.prepare({ creditMicros: CREDIT_MICROS, simulatorUrl: simulator.url, masterKey: MASTER_KEY });
  }, 180_000);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.kill()));
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    await prisma?.$disconnect();
    await pool?.end();
    await simulator?.close();
    await database?.drop();
    built?.remove();
  });

  function startWorker(): AppProcess {
    const app = built.start('worker-video', workerEnvironment(database, prefix));
    running.push(app);
    return app;
  }

  async function createsByKey(): Promise<Record<string, IdempotentCreateCount>> {
    const response = await fetch(`${simulator.url}/__sim/videos/creates`);
    return (await response.json()) as Record<string, IdempotentCreateCount>;
  }

  /** Create requests the simulator received for a task (its Idempotency-Key), answered or not yet. */
  async function createRequestsOf(taskId: string): Promise<number> {
    const response = await fetch(`${simulator.url}/__sim/requests?limit=100`);
    const journal = (await response.json()) as JournalEntry[];
    return journal.filter(
      (entry) =>
        entry.method === 'POST' && entry.path === '/v1/videos' && entry.headers['idempotency-key'] === taskId,
    ).length;
  }

  async function holdStatusOf(taskId: string): Promise<string | undefined> {
    return (await prisma.hold.findUnique({ where: { requestId: taskId } }))?.status;
  }

  async function openTaskCount(): Promise<number> {
    return prisma.task.count({ where: { status: { in: ['queued', 'processing'] } } });
  }

  it('completes every task once, with one upstream video each, while one of two workers is SIGKILLed every few seconds', async () => {
    const steady = startWorker();
    let victim = startWorker();
    let kills = 0;
    const tasks: SeededVideoTask[] = [];
    let seeding = true;
    const chaosEnd = Date.now() + CHAOS_LIMIT_MS;

    const seeder = (async () => {
      for (let wave = 0; tasks.length < TASK_COUNT; wave += 1) {
        const batch = await Promise.all(
          Array.from({ length: WAVE_SIZE }, (_, index) =>
            // Creates answer in 0.8 s, so some kills land between a submission and its stored handle.
            seed.create(
              `a lighthouse, take ${wave}.${index} [[sim task_ms=${2_000 + index * 150};latency=800]]`,
            ),
          ),
        );
        tasks.push(...batch);
        await sleep(WAVE_INTERVAL_MS);
      }
      seeding = false;
    })();

    while (Date.now() < chaosEnd && (seeding || kills < MIN_KILLS || (await openTaskCount()) > 0)) {
      await sleep(KILL_INTERVAL_MS);
      victim.signal('SIGKILL');
      await victim.exited;
      kills += 1;
      victim = startWorker();
    }
    await seeder;
    // A task's row turns terminal just before its settlement lands (or, for a worker killed between
    // the two, before the re-run that settles it).
    await waitFor(
      async () => (await prisma.hold.count({ where: { accountId: seed.accountId, status: 'open' } })) === 0,
      30_000,
    ).catch(() => undefined);
    expect(steady.running).toBe(true);

    // 0 tasks lost: every task completed, none failed or left open.
    const rows = await prisma.task.findMany({
      where: { id: { in: tasks.map((task) => task.taskId) } },
      select: { id: true, status: true, mediaSeconds: true, failureReason: true },
    });
    expect(rows).toHaveLength(TASK_COUNT);
    expect(rows.filter((row) => row.status !== 'completed')).toEqual([]);

    // 0 duplicate upstream creates: one video per task, whatever the resubmissions.
    const creates = await createsByKey();
    for (const { taskId } of tasks) expect(creates[taskId]?.created).toBe(1);

    // Every hold settled exactly once, each capturing the seconds produced at the admitted price.
    const holds = await prisma.hold.findMany({ where: { accountId: seed.accountId } });
    expect(holds.filter((hold) => hold.status !== 'settled')).toEqual([]);
    const captures = await prisma.ledgerEntry.findMany({
      where: { accountId: seed.accountId, kind: 'capture' },
      select: { requestId: true, amount: true },
    });
    expect(captures).toHaveLength(TASK_COUNT);
    const expected = new Map(tasks.map((task) => [task.taskId, task.heldMicros]));
    for (const capture of captures) expect(capture.amount).toBe(expected.get(capture.requestId ?? ''));
    const logs = await prisma.requestLog.findMany({
      where: { accountId: seed.accountId },
      select: { requestId: true, mediaSeconds: true, endReason: true },
    });
    expect(logs).toHaveLength(TASK_COUNT);
    expect(logs.filter((log) => log.endReason !== 'completed' || log.mediaSeconds !== 4)).toEqual([]);

    // The books balance: balance = credits − captures, nothing held.
    const books = await new LedgerAudit(prisma).auditAccount(seed.accountId);
    expect(books).toMatchObject({ balanced: true, held: 0n, openHolds: 0n });
    expect(books.captures).toBe(tasks.reduce((sum, task) => sum + task.heldMicros, 0n));

    const replays = Object.values(creates).reduce((sum, count) => sum + count.requests - count.created, 0);
    process.stdout.write(`video chaos: ${kills} kills, ${replays} idempotent resubmissions\n`);
  }, 300_000);

  it('resubmits a creation its worker was killed during, under the same Idempotency-Key: one video', async () => {
    const first = startWorker();
    // The create answers after 3 s: the worker is killed while it waits for the answer.
    const { taskId, heldMicros } = await seed.create('a kite cut loose [[sim latency=3000;polls=1]]');
    await waitFor(async () => (await createRequestsOf(taskId)) === 1, 30_000);
    first.signal('SIGKILL');
    await first.exited;
    expect(await prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({
      status: 'processing',
      upstreamHandle: null,
    });

    startWorker();
    await waitFor(async () => (await holdStatusOf(taskId)) === 'settled', 60_000);

    expect(await prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({ status: 'completed' });
    expect(await createRequestsOf(taskId)).toBe(2);
    expect((await createsByKey())[taskId]?.created).toBe(1);
    expect(await prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toMatchObject([
      { kind: 'capture', amount: heldMicros },
    ]);
  });

  it('settles a task once when two processors step it at the same time until it ends', async () => {
    // Counts the settlements that applied: a re-run of a finished task settles again, as a no-op.
    const billing = new SettlementService(pool);
    const applied: string[] = [];
    const settlement = new TaskSettlementService(
      {
        settleRowHolds: async (items) => {
          const result = await billing.settleRowHolds(items);
          applied.push(...result.appliedRequestIds);
          return result;
        },
      },
      prisma,
    );
    const http = createUndiciHttpClient();
    const logger = createLogger({ level: 'silent', name: 'video-chaos-test' });
    const processor = () =>
      new TaskStepProcessor({
        store: new TaskStore(prisma, pool),
        adapters: taskAdaptersByType(),
        channels: new PrismaTaskChannelResolver(
          prisma,
          createRegistryChannelConnector({
            keyring: new Map([[1, MASTER_KEY]]),
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
    expect(await prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toMatchObject([
      { kind: 'capture', amount: heldMicros },
    ]);
    expect((await createsByKey())[taskId]).toMatchObject({ requests: 1, created: 1 });
  });
});
