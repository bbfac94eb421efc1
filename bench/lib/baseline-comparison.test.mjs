import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareWithBaseline, renderBaselineSection } from './baseline-comparison.mjs';

const run = (target, round, { cpu, kernel, rps, p50, noisy = false }) => ({
  scenario: 'throughput',
  family: 'native',
  target,
  round,
  rps,
  noisy,
  cpu: { targetUsPerRequest: cpu, targetSystemUsPerRequest: kernel },
  latencyUs: { p50, p99: p50 * 2 },
});

test('ratios are taken within each round, then their median', () => {
  // The machine slows down in round 2: both builds lose half their rate, the ratio holds.
  const runs = [
    run('gateway', 1, { cpu: 100, kernel: 30, rps: 4000, p50: 500 }),
    run('baseline', 1, { cpu: 125, kernel: 20, rps: 3200, p50: 600 }),
    run('baseline', 2, { cpu: 250, kernel: 40, rps: 1600, p50: 1200 }),
    run('gateway', 2, { cpu: 200, kernel: 60, rps: 2000, p50: 1000 }),
    run('gateway', 0, { cpu: 999, rps: 1, p50: 1 }),
    run('proxy', 1, { cpu: 50, rps: 9000, p50: 100 }),
  ];
  const rows = compareWithBaseline(runs);
  const byFigure = Object.fromEntries(rows.map((row) => [row.figure, row]));

  assert.equal(byFigure['CPU µs/request'].ratio, 0.8);
  assert.equal(byFigure['CPU µs/request'].better, true);
  assert.equal(byFigure['requests/s'].ratio, 1.25);
  assert.equal(byFigure['requests/s'].better, true);
  assert.equal(byFigure['requests/s'].rounds, 2);
  assert.ok(Math.abs(byFigure['p50 ms'].ratio - 5 / 6) < 1e-9);
  assert.deepEqual(byFigure['CPU µs/request'].spread, [0.8, 0.8]);
  assert.equal(byFigure['kernel CPU µs/request'].ratio, 1.5);
  assert.equal(byFigure['kernel CPU µs/request'].better, false);
});

test('runs recorded without the kernel part have no row for it', () => {
  const runs = [
    run('gateway', 1, { cpu: 100, rps: 4000, p50: 500 }),
    run('baseline', 1, { cpu: 125, rps: 3200, p50: 600 }),
  ];
  const figures = compareWithBaseline(runs).map((row) => row.figure);
  assert.ok(figures.includes('CPU µs/request'));
  assert.ok(!figures.includes('kernel CPU µs/request'));
});

test('the per-round range shows how far the rounds spread around their median', () => {
  const runs = [
    run('gateway', 1, { cpu: 90, rps: 1000, p50: 400 }),
    run('baseline', 1, { cpu: 100, rps: 1000, p50: 400 }),
    run('gateway', 2, { cpu: 120, rps: 1000, p50: 400 }),
    run('baseline', 2, { cpu: 100, rps: 1000, p50: 400 }),
    run('gateway', 3, { cpu: 100, rps: 1000, p50: 400 }),
    run('baseline', 3, { cpu: 100, rps: 1000, p50: 400 }),
  ];
  const cpu = compareWithBaseline(runs).find((row) => row.figure === 'CPU µs/request');
  assert.equal(cpu.ratio, 1);
  assert.deepEqual(cpu.spread, [0.9, 1.2]);
});

test('a slower build is marked, and noisy rounds are left out while clean ones exist', () => {
  const runs = [
    run('gateway', 1, { cpu: 150, rps: 3000, p50: 500 }),
    run('baseline', 1, { cpu: 100, rps: 4000, p50: 500 }),
    run('gateway', 2, { cpu: 10, rps: 90000, p50: 1, noisy: true }),
    run('baseline', 2, { cpu: 100, rps: 4000, p50: 500 }),
  ];
  const cpu = compareWithBaseline(runs).find((row) => row.figure === 'CPU µs/request');

  assert.equal(cpu.ratio, 1.5);
  assert.equal(cpu.better, false);
  assert.equal(cpu.rounds, 1);
});

test('the section names the commit, and says so when nothing was measured on both builds', () => {
  const empty = renderBaselineSection({ meta: { baselineCommit: 'abc1234' }, runs: [] });
  assert.match(empty, /baseline abc1234/);
  assert.match(empty, /No scenario was measured on both builds/);

  const section = renderBaselineSection({
    meta: { baselineCommit: 'abc1234' },
    runs: [
      run('gateway', 1, { cpu: 90, rps: 1000, p50: 400 }),
      run('baseline', 1, { cpu: 100, rps: 900, p50: 500 }),
    ],
  });
  assert.match(
    section,
    /\| throughput \| .* \| CPU µs\/request \| 90 \| 100 \| 0\.900× ✅ \| 0\.900–0\.900 \| 1 \|/,
  );
});

test('a build that answers fast but stays busy writing after its load keeps less rate over both', () => {
  // 40,000 requests in 10 s each; the baseline then writes for 5 s more, this build for 0.25 s.
  const withDrain = (target, busyMs) => ({
    ...run(target, 1, { cpu: 100, rps: 4000, p50: 500 }),
    requests: 40_000,
    drain: { busyMs, quiet: true },
  });
  const rows = compareWithBaseline([withDrain('gateway', 250), withDrain('baseline', 5000)]);
  const sustained = rows.find((row) => row.figure === 'requests/s, its deferred work included');
  assert.ok(Math.abs(sustained.gateway - 40_000 / 10.25) < 1e-9);
  assert.ok(Math.abs(sustained.baseline - 40_000 / 15) < 1e-9);
  assert.equal(sustained.better, true);
  // Runs recorded before the wait existed have no such row.
  const older = compareWithBaseline([
    run('gateway', 1, { cpu: 1, rps: 1, p50: 1 }),
    run('baseline', 1, { cpu: 1, rps: 1, p50: 1 }),
  ]);
  assert.ok(!older.some((row) => row.figure === 'requests/s, its deferred work included'));
});
