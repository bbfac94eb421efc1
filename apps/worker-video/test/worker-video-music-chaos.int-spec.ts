import { LedgerAudit } from '@gateway/billing/ledger-audit';
import { SUBMISSION_OUTCOME_UNKNOWN, TASK_ABANDONED_END_REASON } from '@gateway/tasks';
import { LambdaSubmissionCountingSimulator } from './lambda-submission-counting.simulator';
import { MusicTaskSeed } from './music-task.seed';
import { killDuringSubmission, MIN_KILLS, runWorkerChaos } from './worker-chaos';
import { useWorkerVideoSuite } from './worker-video-suite';

const TASK_COUNT = 60;
/** What the simulator's two clips last (180.5 s + 120.25 s), rounded up as billing logs it. */
const SONG_SECONDS = 301;

describe('worker-video music tasks under SIGKILL (production build, Postgres, Redis, lambda simulator)', () => {
  const suite = useWorkerVideoSuite({
    name: 'music-chaos',
    // The music poll cycle every second, not every 5 s: a song is found done well within a kill interval.
    extraEnvironment: { MUSIC_POLL_INTERVAL_MS: '1000' },
    startSimulator: () => LambdaSubmissionCountingSimulator.start(),
    seedOf: (harness) => new MusicTaskSeed(harness),
  });

  it('completes every music task with one upstream submission each, while one of two workers is SIGKILLed every few seconds', async () => {
    const { harness, simulator, seed } = suite;
    const startedAt = Date.now();
    const { tasks, kills, steady } = await runWorkerChaos(harness, {
      taskCount: TASK_COUNT,
      // Ten waves 2 s apart: tasks keep arriving through the first kills.
      waveSize: 6,
      waveIntervalMs: 2_000,
      limitMs: 120_000,
      accountId: seed.accountId,
      create: (wave, index) =>
        // Songs end 1.5–3.5 s after submission; every other one first answers UNKNOWN once.
        seed.create(
          `a harbour song, take ${wave}.${index} [[sim task_ms=${1_500 + index * 400};unknown=${index % 2}]]`,
        ),
    });
    expect(steady.running).toBe(true);
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);

    // 0 tasks lost: every task ended, none left open. A kill that lands inside a task's submission (the
    // worker waiting for the upstream's answer) leaves its outcome unknown: the wire cannot be asked
    // and has no de-duplication, so the task fails unsent-again and is charged nothing, as the next
    // test shows on its own. How many kills land there depends on the machine's load; the rest complete.
    const taskIds = tasks.map((task) => task.taskId);
    const rows = await harness.prisma.task.findMany({
      where: { id: { in: taskIds } },
      select: { id: true, status: true, failureReason: true, upstreamHandle: true, mediaSeconds: true },
    });
    expect(rows).toHaveLength(TASK_COUNT);
    const cutInSubmission = rows.filter((row) => row.status === 'failed');
    expect(
      cutInSubmission.filter((row) => row.failureReason !== SUBMISSION_OUTCOME_UNKNOWN || row.upstreamHandle),
    ).toEqual([]);
    const completed = rows.filter((row) => row.status === 'completed');
    expect(completed).toHaveLength(TASK_COUNT - cutInSubmission.length);
    // A kill cuts every submission the killed worker had in flight (up to its concurrency, not one), so
    // the count is bounded by the load, not by the kills: 0 on an idle machine, 8 after 6 kills once on
    // a loaded one. Submissions take milliseconds and kills come seconds apart; if half the tasks failed,
    // tasks that were never cut would have been declared unknown.
    expect(completed.length).toBeGreaterThan(TASK_COUNT / 2);
    const completedIds = completed.map((row) => row.id);

    // The wire has no de-duplication: each task was sent upstream at most once, each completed task
    // exactly once, no submission named anything else, and each completed row holds its own song.
    const counted = simulator.submissionsByTask();
    expect([...counted].filter(([taskId, count]) => !taskIds.includes(taskId) || count !== 1)).toEqual([]);
    expect(completedIds.filter((taskId) => !counted.has(taskId))).toEqual([]);
    expect(await simulator.submitRouteCount()).toBeLessThanOrEqual(TASK_COUNT);
    const upstreamIds = new Set(
      completed.map((row) => (row.upstreamHandle as { taskId?: string } | null)?.taskId),
    );
    expect(upstreamIds.size).toBe(completed.length);
    expect(completed.filter((row) => row.mediaSeconds !== SONG_SECONDS)).toEqual([]);

    // Every hold settled exactly once: a completed task captures what it held (its perCall), a task cut
    // in its submission captures nothing.
    const holds = await harness.prisma.hold.findMany({ where: { accountId: seed.accountId } });
    expect(holds).toHaveLength(TASK_COUNT);
    expect(holds.filter((hold) => hold.status !== 'settled')).toEqual([]);
    const entries = await harness.prisma.ledgerEntry.findMany({
      where: { accountId: seed.accountId, kind: { not: 'credit' } },
      select: { requestId: true, kind: true, amount: true },
    });
    const expected = new Map(
      tasks
        .filter((task) => completedIds.includes(task.taskId))
        .map((task) => [task.taskId, task.heldMicros]),
    );
    expect(entries).toHaveLength(completed.length);
    expect(
      entries.filter(
        (entry) => entry.kind !== 'capture' || entry.amount !== expected.get(entry.requestId ?? ''),
      ),
    ).toEqual([]);
    expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(completed.length);
    const logs = await harness.prisma.requestLog.findMany({
      where: { accountId: seed.accountId },
      select: { requestId: true, mediaSeconds: true, endReason: true, costMicros: true },
    });
    expect(logs).toHaveLength(TASK_COUNT);
    expect(
      logs.filter((log) =>
        expected.has(log.requestId)
          ? log.endReason !== 'completed' ||
            log.mediaSeconds !== SONG_SECONDS ||
            log.costMicros !== expected.get(log.requestId)
          : log.endReason !== TASK_ABANDONED_END_REASON || log.costMicros !== 0n,
      ),
    ).toEqual([]);

    // The books balance: balance = credits − captures, nothing held.
    const books = await new LedgerAudit(harness.prisma).auditAccount(seed.accountId);
    expect(books).toMatchObject({ balanced: true, held: 0n, openHolds: 0n });
    expect(books.captures).toBe([...expected.values()].reduce((sum, held) => sum + held, 0n));

    const seconds = Math.round((Date.now() - startedAt) / 1000);
    process.stdout.write(
      `music chaos: ${kills} kills, ${TASK_COUNT} tasks (${cutInSubmission.length} cut in their submission), ${seconds} s\n`,
    );
  }, 300_000);

  it('never sends a music submission twice when its worker was killed waiting for the answer: the task fails and its hold is released once', async () => {
    const { harness, simulator, seed } = suite;
    // The submission answers after 3 s: the worker is killed while it waits. The simulator drops a
    // submission whose sender left during the scripted latency, so no song was made either.
    const {
      task: { taskId },
      rowAtKill,
    } = await killDuringSubmission(
      harness,
      () => seed.create('a song cut short [[sim latency=3000]]'),
      (taskId) => simulator.submissionsOf(taskId),
    );
    expect(rowAtKill).toMatchObject({ status: 'processing', upstreamHandle: null });

    expect(await harness.prisma.task.findUnique({ where: { id: taskId } })).toMatchObject({
      status: 'failed',
      failureReason: SUBMISSION_OUTCOME_UNKNOWN,
      upstreamHandle: null,
    });
    expect(simulator.submissionsOf(taskId)).toBe(1);
    expect(await harness.prisma.ledgerEntry.findMany({ where: { requestId: taskId } })).toEqual([]);
    expect(await harness.prisma.requestLog.findMany({ where: { requestId: taskId } })).toMatchObject([
      { endReason: TASK_ABANDONED_END_REASON, costMicros: 0n },
    ]);
  });
});
