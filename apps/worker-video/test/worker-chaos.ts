import type { Task } from '@gateway/db';
import { waitFor, type AppProcess } from '@gateway/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SeededTask } from './task-seed';
import type { WorkerVideoHarness } from './worker-video-harness';

/** A restarted worker takes about 1.5 s to boot: it works for the rest of the interval. */
const KILL_INTERVAL_MS = 4_000;
/** At least this many kills, however fast the tasks finish. */
export const MIN_KILLS = 6;
/** How long the settlements of tasks whose rows just turned terminal may take to land. */
const SETTLE_WAIT_MS = 30_000;
/** How long a started worker may take to boot and send a task upstream. */
const SUBMISSION_WAIT_MS = 30_000;
/** How long a restarted worker may take to take the killed one's task over and end it. */
const RECOVERY_WAIT_MS = 60_000;

export interface ChaosPlan<Seeded> {
  taskCount: number;
  /** Tasks arrive in waves while the workers are being killed, so kills land in every phase of a task. */
  waveSize: number;
  waveIntervalMs: number;
  /** The chaos stops here even if tasks are still open: the assertions then say which. */
  limitMs: number;
  /** The account the tasks are held under: after the kills, the run waits until none of its holds is open. */
  accountId: string;
  /** Seeds the `index`th task of wave `wave`. */
  create(wave: number, index: number): Promise<Seeded>;
}

export interface ChaosOutcome<Seeded> {
  /** Every task seeded, in the order they were. */
  tasks: Seeded[];
  kills: number;
  /** The worker that was never killed: still running unless something else ended it. */
  steady: AppProcess;
}

/**
 * Two workers, one of which is SIGKILLed and restarted every few seconds: while tasks arrive, at least
 * MIN_KILLS times, and until no task is open or the plan's limit is reached.
 */
export async function runWorkerChaos<Seeded>(
  harness: WorkerVideoHarness,
  plan: ChaosPlan<Seeded>,
): Promise<ChaosOutcome<Seeded>> {
  const steady = harness.startWorker();
  let victim = harness.startWorker();
  let kills = 0;
  const tasks: Seeded[] = [];
  let seeding = true;
  const chaosEnd = Date.now() + plan.limitMs;

  const seeder = (async () => {
    for (let wave = 0; tasks.length < plan.taskCount; wave += 1) {
      const batch = Array.from({ length: plan.waveSize }, (_, index) => plan.create(wave, index));
      tasks.push(...(await Promise.all(batch)));
      await sleep(plan.waveIntervalMs);
    }
    seeding = false;
  })();

  while (Date.now() < chaosEnd && (seeding || kills < MIN_KILLS || (await harness.openTaskCount()) > 0)) {
    await sleep(KILL_INTERVAL_MS);
    await harness.killWorker(victim);
    kills += 1;
    victim = harness.startWorker();
  }
  await seeder;
  // A task's row turns terminal just before its settlement lands (or, for a worker killed between the
  // two, before the re-run that settles it). Holds still open after the wait are for the assertions.
  await waitFor(
    async () =>
      (await harness.prisma.hold.count({ where: { accountId: plan.accountId, status: 'open' } })) === 0,
    SETTLE_WAIT_MS,
  ).catch(() => undefined);
  return { tasks, kills, steady };
}

export interface KilledSubmission<Seeded> {
  task: Seeded;
  /** The task's row as the kill left it, read before another worker started. */
  rowAtKill: Task | null;
}

/**
 * Starts a worker, seeds one task, and SIGKILLs the worker once `submissionsOf` counts the task's first
 * submission upstream (the task's directives keep the answer back, so the worker is still waiting for
 * it); then starts another worker and waits until the task's hold is settled.
 */
export async function killDuringSubmission<Seeded extends SeededTask>(
  harness: WorkerVideoHarness,
  seedTask: () => Promise<Seeded>,
  submissionsOf: (taskId: string) => number | Promise<number>,
): Promise<KilledSubmission<Seeded>> {
  const first = harness.startWorker();
  const task = await seedTask();
  await waitFor(async () => (await submissionsOf(task.taskId)) === 1, SUBMISSION_WAIT_MS);
  await harness.killWorker(first);
  const rowAtKill = await harness.prisma.task.findUnique({ where: { id: task.taskId } });
  harness.startWorker();
  await waitFor(async () => (await harness.holdStatusOf(task.taskId)) === 'settled', RECOVERY_WAIT_MS);
  return { task, rowAtKill };
}
