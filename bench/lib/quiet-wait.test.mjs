import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUSY_LOOPS_GROUP } from './busy-cores.mjs';
import { CLOCK_TICKS_PER_SECOND } from './proc-stats.mjs';
import { targetCores, waitUntilQuiet } from './quiet-wait.mjs';

/** A snapshot `atMs` into the wait whose groups have used `ticks` each (one process per group). */
const snapshot = (atMs, ticks) => ({
  at: BigInt(atMs * 1_000_000),
  machine: { busyTicks: 0, totalTicks: 0 },
  self: { ownTicks: 0, reapedChildTicks: 0 },
  ticksByGroup: Object.fromEntries(Object.entries(ticks).map(([name, value]) => [name, { 1: value }])),
  systemTicksByGroup: {},
});

test("the busy loops are not the target's: only its own groups make it busy", () => {
  const perSecond = CLOCK_TICKS_PER_SECOND;
  const before = snapshot(0, { main: 0, postgres: 0, [BUSY_LOOPS_GROUP]: 0 });
  const after = snapshot(1000, {
    main: perSecond / 2,
    postgres: perSecond / 4,
    [BUSY_LOOPS_GROUP]: perSecond,
  });
  assert.ok(Math.abs(targetCores(before, after) - 0.75) < 1e-9);
});

test('the wait ends at the first quiet interval, with the snapshot that showed it', async () => {
  // A backlog written for three intervals (0.8 of a core), then an idle stack (0.04).
  const busyness = [0.8, 0.8, 0.8, 0.04, 0.04];
  let looks = 0;
  const waits = [];
  const result = await waitUntilQuiet({}, 'load-end', {
    snapshot: () => `look-${++looks}`,
    wait: async (ms) => void waits.push(ms),
    cores: () => busyness[looks - 1],
  });
  assert.deepEqual(result, { snapshot: 'look-4', busyMs: 750, quiet: true });
  assert.deepEqual(waits, [250, 250, 250, 250]);
});

test('each interval is measured from the snapshot before it', async () => {
  const pairs = [];
  let looks = 0;
  await waitUntilQuiet({}, 'load-end', {
    snapshot: () => `look-${++looks}`,
    wait: async () => undefined,
    cores: (from, to) => {
      pairs.push([from, to]);
      return looks < 2 ? 1 : 0;
    },
  });
  assert.deepEqual(pairs, [
    ['load-end', 'look-1'],
    ['look-1', 'look-2'],
  ]);
});

test('a target that never quiets is given up on at the cap and reported so', async () => {
  let looks = 0;
  const result = await waitUntilQuiet({}, 'load-end', {
    capMs: 1000,
    snapshot: () => `look-${++looks}`,
    wait: async () => undefined,
    cores: () => 0.5,
  });
  assert.deepEqual(result, { snapshot: 'look-4', busyMs: 1000, quiet: false });
});
