// The figures of the video task scenario, from what the run collected: the gateway's task rows, the
// simulator's completion times, /proc and pg_stat_database readings. Pure: no I/O, no clock.
import { percentile } from './stats.mjs';

/** Statuses of a task row that is still open (performance.md: the platform's vocabulary). */
const OPEN_STATUSES = new Set(['queued', 'processing']);

/** The lag a task may have beyond one poll interval: performance.md's must and goal. */
export const LAG_BEYOND_INTERVAL_MS = { must: 5_000, goal: 1_000 };
/**
 * A backend that goes idle keeps up to a second of statistics pending for PGSTAT_IDLE_INTERVAL (10 s)
 * before pg_stat_database shows them: every database reading that closes a phase waits this long after
 * the work stopped.
 */
export const STATISTICS_FLUSH_MS = 11_000;
/** Worker CPU per poll: performance.md's must and goal. */
export const WORKER_CPU_PER_POLL_US = { must: 2_000, goal: 500 };
/** Creations per second at 32 connections as a share of the plain insert-and-enqueue's: must and goal. */
export const CREATION_VS_BASELINE = { must: 0.5, goal: 0.8 };

/**
 * One sample per task that completed at the gateway and whose upstream video the simulator reports:
 * - `lagMs`: the gateway's `completed_at` minus the moment the upstream finished (the simulator's
 *   `readyAtMs`, when the scripted `task_ms` ran out);
 * - `detectMs`: from that moment to the retrieve that first answered `completed` (the poll delay);
 * - `recordMs`: from that retrieve to `completed_at` (the worker's own work after the answer);
 * - `intervalMs`: the poll interval the platform's rule gives at the task's age when it finished
 *   (`pollDelayMs(ageMs)`, the worker's nextPollDelayMs with its timing), the yardstick of the goal.
 *
 * tasks: [{ id, status, createdMs, completedMs, videoId }]; completions: [{ id, readyAtMs, completedAtMs }].
 */
export function taskLagSamples(tasks, completions, pollDelayMs) {
  const byVideo = new Map(completions.map((completion) => [completion.id, completion]));
  const samples = [];
  let unmatched = 0;
  for (const task of tasks) {
    if (task.status !== 'completed' || typeof task.completedMs !== 'number') continue;
    const upstream = byVideo.get(task.videoId);
    if (!upstream) {
      unmatched += 1;
      continue;
    }
    samples.push({
      lagMs: task.completedMs - upstream.readyAtMs,
      detectMs: upstream.completedAtMs - upstream.readyAtMs,
      recordMs: task.completedMs - upstream.completedAtMs,
      intervalMs: pollDelayMs(upstream.readyAtMs - task.createdMs),
    });
  }
  return { samples, unmatched };
}

/** Percentiles of the lag samples, in milliseconds; `withinGoalShare`: lag ≤ interval + the goal. */
export function summariseLags(samples) {
  const of = (field, p) =>
    percentile(
      samples.map((sample) => sample[field]),
      p,
    );
  const beyond = samples.map((sample) => sample.lagMs - sample.intervalMs);
  return {
    count: samples.length,
    lagP50Ms: of('lagMs', 50),
    lagP99Ms: of('lagMs', 99),
    lagMaxMs: of('lagMs', 100),
    detectP50Ms: of('detectMs', 50),
    detectP99Ms: of('detectMs', 99),
    recordP50Ms: of('recordMs', 50),
    recordP99Ms: of('recordMs', 99),
    intervalP50Ms: of('intervalMs', 50),
    beyondIntervalP99Ms: percentile(beyond, 99),
    withinGoalShare:
      samples.length === 0
        ? null
        : beyond.filter((value) => value <= LAG_BEYOND_INTERVAL_MS.goal).length / samples.length,
  };
}

/** Task rows per status, and how many are still open. */
export function countStatuses(tasks) {
  const byStatus = {};
  for (const task of tasks) byStatus[task.status] = (byStatus[task.status] ?? 0) + 1;
  const open = tasks.filter((task) => OPEN_STATUSES.has(task.status)).length;
  return { total: tasks.length, open, byStatus };
}

const DATABASE_COUNTERS = {
  rowsReturned: 'tup_returned',
  rowsFetched: 'tup_fetched',
  rowsInserted: 'tup_inserted',
  rowsUpdated: 'tup_updated',
  rowsDeleted: 'tup_deleted',
};

/**
 * What the database did between two pg_stat_database rows of the stack's database: transactions
 * (commits and rollbacks; every statement outside an explicit transaction is one, so it is a lower
 * bound of the statements) minus `ownQueries` the harness itself ran there, and rows by operation.
 */
export function databaseDelta(before, after, ownQueries = 0) {
  const difference = (column) => Number(after[column]) - Number(before[column]);
  const delta = {
    transactions: difference('xact_commit') + difference('xact_rollback') - ownQueries,
    rollbacks: difference('xact_rollback'),
  };
  for (const [name, column] of Object.entries(DATABASE_COUNTERS)) delta[name] = difference(column);
  return delta;
}

/** `value` per `count` (null without a count); every field of an object of values when given one. */
export function perUnit(value, count) {
  if (!(count > 0)) return null;
  if (typeof value === 'number') return value / count;
  return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, field / count]));
}

/** Sum of one route's count between two `/__sim/stats` snapshots. */
export function routeDelta(before, after, route) {
  return (after.byRoute?.[route] ?? 0) - (before.byRoute?.[route] ?? 0);
}
