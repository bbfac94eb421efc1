import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareToReference, delta, median, orderForRound, percentile, ratio } from './stats.mjs';

test('percentiles interpolate between the nearest samples, whatever their order', () => {
  assert.equal(percentile([4, 1, 3, 2], 50), 2.5);
  assert.equal(percentile([10, 20, 30, 40, 50], 90), 46);
  assert.equal(percentile([7], 99), 7);
  assert.equal(percentile([], 50), null);
});

test('the median ignores missing values', () => {
  assert.equal(median([3, null, 1, undefined, 2]), 2);
  assert.equal(median([NaN, null]), null);
});

test('ratio and delta refuse missing or zero references', () => {
  assert.equal(ratio(50, 200), 0.25);
  assert.equal(ratio(50, 0), null);
  assert.equal(delta(1200, 1000), 200);
  assert.equal(delta(undefined, 1000), null);
});

test('rounds alternate direction', () => {
  assert.deepEqual(orderForRound(['a', 'b', 'c'], 1), ['a', 'b', 'c']);
  assert.deepEqual(orderForRound(['a', 'b', 'c'], 2), ['c', 'b', 'a']);
  assert.deepEqual(orderForRound(['a', 'b', 'c'], 3), ['a', 'b', 'c']);
});

const run = (target, round, rps, p50, p99, noisy = false) => ({
  target,
  round,
  rps,
  latencyUs: { p50, p90: p50 * 2, p99 },
  noisy,
});

test('comparisons are taken per round, then the median across rounds', () => {
  const runs = [
    run('direct', 0, 99999, 1, 1), // warm-up: ignored
    run('direct', 1, 1000, 100, 400),
    run('gateway', 1, 200, 300, 900),
    run('direct', 2, 2000, 100, 400),
    run('gateway', 2, 300, 350, 1400),
    run('direct', 3, 1000, 200, 400),
    run('gateway', 3, 500, 700, 1000),
  ];
  const comparison = compareToReference(runs, 'gateway', 'direct');
  // Ratios per round 0.2, 0.15, 0.5 → median 0.2; added p50 200, 250, 500 → 250; added p99 500, 1000, 600 → 600.
  assert.equal(comparison.throughputRatio, 0.2);
  assert.equal(comparison.addedP50Us, 250);
  assert.equal(comparison.addedP99Us, 600);
  assert.equal(comparison.roundsUsed, 3);
  assert.equal(comparison.noisy, false);
});

test('noisy rounds are left out while a clean one exists, and used (flagged) otherwise', () => {
  const runs = [
    run('direct', 1, 1000, 100, 400),
    run('gateway', 1, 100, 900, 900, true),
    run('direct', 2, 1000, 100, 400),
    run('gateway', 2, 400, 300, 900),
  ];
  const comparison = compareToReference(runs, 'gateway', 'direct');
  assert.equal(comparison.throughputRatio, 0.4);
  assert.equal(comparison.roundsUsed, 1);

  const allNoisy = compareToReference(
    runs.map((entry) => ({ ...entry, noisy: true })),
    'gateway',
    'direct',
  );
  assert.equal(allNoisy.noisy, true);
  assert.equal(allNoisy.throughputRatio, 0.25);
});

test('no comparison without a reference run in the same round', () => {
  assert.equal(
    compareToReference([run('gateway', 1, 10, 1, 1), run('direct', 2, 10, 1, 1)], 'gateway', 'direct'),
    null,
  );
});
