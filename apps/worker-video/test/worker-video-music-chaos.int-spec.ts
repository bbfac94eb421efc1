import { LedgerAudit } from '@gateway/billing';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { QUEUE_NAMES, SUBMISSION_OUTCOME_UNKNOWN, TASK_ABANDONED_END_REASON } from '@gateway/tasks';
import { BuiltApps, createTestDatabase, waitFor, type AppProcess, type TestDatabase } from '@gateway/testing';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from 'pg';
import { LambdaSubmissionCountingSimulator } from './lambda-submission-counting.simulator';
import { MusicTaskSeed, type SeededMusicTask } from './music-task.seed';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MASTER_KEY = randomBytes(32);
const TASK_COUNT = 60;
/** Tasks arrive in waves for as long as the first kills, so kills land in every phase of a task. */
const WAVE_SIZE = 6;
const WAVE_INTERVAL_MS = 2_000;
/** A restarted worker takes about 1.5 s to boot: it works for the rest of the interval. */
const KILL_INTERVAL_MS = 4_000;
/** At least this many kills, however fast the tasks finish. */
const MIN_KILLS = 6;
const CREDIT_MICROS = 1_000_000_000n;
/** The chaos stops here even if tasks are still open: the assertions then say which. */
const CHAOS_LIMIT_MS = 120_000;
/** What the simulator's two clips last (180.5 s + 120.25 s), rounded up as billing logs it. */
const SONG_SECONDS = 301;

/**
 * Short bounds for the built worker: a killed worker's jobs are taken over after 2 s, an interrupted
 * submission is looked at again after 3 s, the music poll cycle runs every second, and a task whose
 * job was lost is found within a few seconds.
 */
function workerEnvironment(database: TestDatabase, prefix: string): Record<string, string> {
  return {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '8',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    ADMIN_TOKEN: 'music-chaos-admin-token-0123',
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
    MUSIC_POLL_INTERVAL_MS: '1000',
  };
}

describe('worker-video music tasks under SIGKILL (production build, Postgres, Redis, lambda simulator)', () => {
  let built: BuiltApps;
  let database: TestDatabase;
  let simulator: LambdaSubmissionCountingSimulator;
  let pool: Pool;
  let prisma: PrismaClient;
  let queue: Queue;
  let seed: MusicTaskSeed;
  let prefix: string;
  const running: AppProcess[] = [];

  beforeAll(async () => {
    built = BuiltApps.build();
    [database, simulator] = await Promise.all([
      createTestDatabase(),
      LambdaSubmissionCountingSimulator.start(),
    ]);
    pool = createPgPool(database.url, 8);
    prisma = createPrismaClient(pool);
    prefix = `test-music-chaos-${randomBytes(4).toString('hex')}`;
    queue = new Queue(QUEUE_NAMES.videoTasks, { connection: { url: REDIS_URL }, prefix });
    seed = new MusicTaskSeed(pool, prisma, queue);
    await seed.prepare({ creditMicros: CREDIT_MICROS, simulatorUrl: simulator.url, masterKey: MASTER_KEY });
  }, 180_000);

  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.kill()));
  });

  afterAll(async () => {
    // The music poll cycles' queue was made by the workers under the same prefix.
    const polls = new Queue(QUEUE_NAMES.musicPolls, { connection: { url: REDIS_URL }, prefix });
    await polls.obliterate({ force: true });
    await polls.close();
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

  async function holdStatusOf(taskId: string): Promise<string | undefined> {
    return (await prisma.hold.findUnique({ where: { requestId: taskId } }))?.status;
  }

  async function openTaskCount(): Promise<number> {
    return prisma.task.count({ where: { status: { in: ['queued', 'processing'] } } });
  }

  it('completes every music task with one upstream submission each, while one of two workers is SIGKILLed every few seconds', async () => {
    const startedAt = Date.now();
    const steady = startWorker();
    let victim = startWorker();
    let kills = 0;
    const tasks: SeededMusicTask[] = [];
    let seeding = true;
    const chaosEnd = Date.now() + CHAOS_LIMIT_MS;

    const seeder = (async () => {
      for (let wave = 0; tasks.length < TASK_COUNT; wave += 1) {
        const batch = await Promise.all(
          Array.from({ length: WAVE_SIZE }, (_, index) =>
            // Songs end 1.5–3.5 s after submission; every other one first answers UNKNOWN once.
            seed.create(
              `a harbour song, take ${wave}.${index} [[sim task_ms=${1_500 + index * 400};unknown=${index % 2}]]`,
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
    // A task's row turns terminal just before its settlement lands.
    await waitFor(
      async () => (await prisma.hold.count({ where: { accountId: seed.accountId, status: 'open' } })) === 0,
      30_000,
    ).catch(() => undefined);
    expect(steady.running).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);

    // 0 tasks lost: every task completed, none failed or left open.
    const taskIds = tasks.map((task) => task.taskId);
    const rows = await prisma.task.findMany({
      where: { id: { in: taskIds } },
      select: { id: true, status: true, failureReason: true, upstreamHandle: true, mediaSeconds: true },
    });
    expect(rows).toHaveLength(TASK_COUNT);
    expect(rows.filter((row) => row.status !== 'completed')).toEqual([]);

    // The wire has no de-duplication: each task was sent upstream exactly once (at most once, and a
    // completed task was sent), no submission named anything else, and each row holds its own song.
    const counted = simulator.submissionsByTask();
    expect([...counted].filter(([taskId, count]) => !taskIds.includes(taskId) || count !== 1)).toEqual([]);
    expect(taskIds.filter((taskId) => !counted.has(taskId))).toEqual([]);
    expect(await simulator.submitRouteCount()).toBe(TASK_COUNT);
    const upstreamIds = new Set(
      rows.map((row) => (row.upstreamHandle as { taskId?: string } | null)?.taskId),
    );
    expect(upstreamIds.size).toBe(TASK_COUNT);
    expect(rows.filter((row) => row.mediaSeconds !== SONG_SECONDS)).toEqual([]);

    // Every hold settled exactly once, each capturing what it held (a music task captures its perCall).
    const holds = await prisma.hold.findMany({ where: { accountId: seed.accountId } });
    expect(holds).toHaveLength(TASK_COUNT);
    expect(holds.filter((hold) => hold.status !== 'settled')).toEqual([]);
    const entries = await prisma.ledgerEntry.findMany({
      where: { accountId: seed.accountId, kind: { not: 'credit' } },
      select: { requestId: true, kind: true, amount: true },
    });
    const expected = new Map(tasks.map((task) => [task.taskId, task.heldMicros]));
    expect(entries).toHaveLength(TASK_COUNT);
    expect(
      entries.filter(
        (entry) => entry.kind !== 'capture' || entry.amount !== expected.get(entry.requestId ?? ''),
      ),
    ).toEqual([]);
    expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(TASK_COUNT);
    const logs = await prisma.requestLog.findMany({
      where: { accountId: seed.accountId },
      select: { requestId: true, mediaSeconds: true, endReason: true, costMicros: true },
    });
    expect(logs).toHaveLength(TASK_COUNT);
    expect(
      logs.filter(
        (log) =>
          log.endReason !== 'completed' ||
          log.mediaSeconds !== SONG_SECONDS ||
          log.costMicros !== expected.get(log.requestId),
      ),
    ).toEqual([]);

    // The books balance: balance = credits − captures, nothing held.
    const books = await new LedgerAudit(prisma).auditAccount(seed.accountId);
    expect(books).toMatchObject({ balanced: true, held: 0n, openHolds: 0n });
    expect(books.captures).toBe(tasks.reduce((sum, task) => sum + task.heldMicros, 0n));

    const seconds = Math.round((Date.now() - startedAt) / 1000);
    process.stdout.write(`music chaos: ${kills} kills, ${TASK_COUNT} tasks, ${seconds} s\n`);
  }, 300_000);

  it('never sends a music submission twice when its worker was killed waiting for the answer: the task fails and its hold is released once', async () => {
    const first = startWorker();
    // The submission answers after 3 s: the worker is killed while it waits. The simulator drops a
    // submission whose sender left during the scripted latency, so no song was made either.
    const { taskId } = await seed.create('a song cut short [[sim latency=3000]]');
    await waitFor(async () => simulator.submissionsOf(taskId) === 1, 30_000);
    first.signal('SIGKILL');
    await first.exited;
    expect(await prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({
      status: 'processing',
      upstreamHandle: null,
    });

    startWorker();
    await waitFor(async () => (await holdStatusOf(taskId)) === 'settled', 60_000);

    expect(await prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({
      status: 'failed',
      failureReason: SUBMISSION_OUTCOME_UNKNOWN,
      upstreamHandle: null,
    });
    expect(simulator.submissionsOf(taskId)).toBe(1);
    expect(await prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toEqual([]);
    expect(await prisma.requestLog.findMany({ where: { requestId: taskId } })).toMatchObject([
      { endReason: TASK_ABANDONED_END_REASON, costMicros: 0n },
    ]);
  });
});
