// After a measured load: wait until the target's processes are quiet again, so that the work it
// deferred (settlements and log rows still being written, its Postgres backends finishing them) is
// charged to the run that caused it and never runs during the next run, another target's included.
// Found with --baseline 73bce7f at 64 connections: that build's settlement writes fell behind its
// answers (its replica's RSS grew from 179 to 293 MiB over eight rounds), its Postgres backend stayed
// busy for about ten seconds after each of its runs, and the build measured after it lost a third of
// its throughput to that backend (docs/performance-analysis.md, "Deferred work between rounds").
import { setTimeout as sleep } from 'node:timers/promises';
import { BUSY_LOOPS_GROUP } from './busy-cores.mjs';
import { diffSnapshots, takeSnapshot } from './proc-stats.mjs';

/** How long each look at the target's CPU lasts. */
export const QUIET_INTERVAL_MS = 250;
/**
 * Below this many cores over one interval the target is quiet: the gateway's stack is, at the first
 * or second look after most of its runs (its timers, the workers' polls, Redis); 73bce7f's Postgres
 * backend writing its backlog used 0.3–0.8 of a core.
 */
export const QUIET_CORES = 0.1;
/** The longest wait: a target still busy by then is reported so (`quiet: false`), not waited for. */
export const QUIET_CAP_MS = 30_000;

/** CPU of every group but the busy loops between two snapshots, in cores. */
export function targetCores(before, after) {
  const diff = diffSnapshots(before, after);
  if (diff.wallMicroseconds <= 0) return 0;
  let busy = 0;
  for (const [name, microseconds] of Object.entries(diff.groupsMicroseconds)) {
    if (name !== BUSY_LOOPS_GROUP) busy += microseconds;
  }
  return busy / diff.wallMicroseconds;
}

/**
 * Takes snapshots of `groups` every `intervalMs` from `start` until one interval used less than
 * `quietCores` or `capMs` has passed; resolves with the last snapshot, how long the target stayed
 * busy (the intervals before the quiet one, to an interval's resolution) and whether it ended quiet.
 * `snapshot`, `wait` and `cores` are injectable for tests.
 */
export async function waitUntilQuiet(
  groups,
  start,
  {
    intervalMs = QUIET_INTERVAL_MS,
    quietCores = QUIET_CORES,
    capMs = QUIET_CAP_MS,
    snapshot = takeSnapshot,
    wait = sleep,
    cores = targetCores,
  } = {},
) {
  let last = start;
  for (let waitedMs = 0; waitedMs < capMs;) {
    await wait(intervalMs);
    waitedMs += intervalMs;
    const next = snapshot(groups);
    const used = cores(last, next);
    last = next;
    if (used < quietCores) return { snapshot: last, busyMs: waitedMs - intervalMs, quiet: true };
  }
  return { snapshot: last, busyMs: capMs, quiet: false };
}
