import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  countStatuses,
  databaseDelta,
  perUnit,
  routeDelta,
  summariseLags,
  taskLagSamples,
} from './task-figures.mjs';

// The platform's rule in miniature: a tenth of the age, at least 1 s.
const pollDelayMs = (ageMs) => Math.max(1000, ageMs / 10);

test('each completed task is matched to its upstream video by the handle and split into its lags', () => {
  const tasks = [
    { id: 'task_a', status: 'completed', createdMs: 1_000, completedMs: 33_500, videoId: 'video_a' },
    { id: 'task_b', status: 'failed', createdMs: 1_000, completedMs: null, videoId: 'video_b' },
    { id: 'task_c', status: 'completed', createdMs: 2_000, completedMs: 40_000, videoId: 'video_gone' },
  ];
  const completions = [
    { id: 'video_a', readyAtMs: 31_000, completedAtMs: 33_400 },
    { id: 'video_b', readyAtMs: 31_000, completedAtMs: 31_500 },
  ];
  const { samples, unmatched } = taskLagSamples(tasks, completions, pollDelayMs);
  assert.deepEqual(samples, [{ lagMs: 2_500, detectMs: 2_400, recordMs: 100, intervalMs: 3_000 }]);
  assert.equal(unmatched, 1);
});

test('lag percentiles, the excess over the poll interval and the share within the goal', () => {
  const samples = [
    { lagMs: 1_000, detectMs: 900, recordMs: 100, intervalMs: 3_000 },
    { lagMs: 3_000, detectMs: 2_900, recordMs: 100, intervalMs: 3_000 },
    { lagMs: 4_500, detectMs: 4_300, recordMs: 200, intervalMs: 3_000 },
    { lagMs: 9_000, detectMs: 8_000, recordMs: 1_000, intervalMs: 3_000 },
  ];
  const summary = summariseLags(samples);
  assert.equal(summary.count, 4);
  assert.equal(summary.lagP50Ms, 3_750);
  assert.equal(summary.lagMaxMs, 9_000);
  assert.equal(summary.intervalP50Ms, 3_000);
  // Excess over the interval: −2000, 0, 1500, 6000; p99 interpolates between the last two.
  assert.ok(Math.abs(summary.beyondIntervalP99Ms - 5_865) < 1e-6);
  // Within interval + 1 s: the first two only.
  assert.equal(summary.withinGoalShare, 0.5);
  assert.equal(summariseLags([]).withinGoalShare, null);
});

test('statuses are counted, queued and processing as open', () => {
  const statuses = countStatuses([
    { status: 'completed' },
    { status: 'completed' },
    { status: 'processing' },
    { status: 'queued' },
    { status: 'failed' },
  ]);
  assert.deepEqual(statuses, {
    total: 5,
    open: 2,
    byStatus: { completed: 2, processing: 1, queued: 1, failed: 1 },
  });
});

test('database deltas count commits and rollbacks, minus the harness’s own queries', () => {
  // pg answers bigint columns as strings.
  const before = {
    xact_commit: '100',
    xact_rollback: '2',
    tup_returned: '1000',
    tup_fetched: '500',
    tup_inserted: '10',
    tup_updated: '20',
    tup_deleted: '0',
  };
  const after = {
    xact_commit: '400',
    xact_rollback: '3',
    tup_returned: '1900',
    tup_fetched: '800',
    tup_inserted: '60',
    tup_updated: '220',
    tup_deleted: '5',
  };
  assert.deepEqual(databaseDelta(before, after, 1), {
    transactions: 300,
    rollbacks: 1,
    rowsReturned: 900,
    rowsFetched: 300,
    rowsInserted: 50,
    rowsUpdated: 200,
    rowsDeleted: 5,
  });
});

test('per-unit figures divide numbers and every field of an object, and need a count', () => {
  assert.equal(perUnit(900, 300), 3);
  assert.deepEqual(perUnit({ transactions: 600, rowsFetched: 150 }, 300), {
    transactions: 2,
    rowsFetched: 0.5,
  });
  assert.equal(perUnit(900, 0), null);
  assert.equal(perUnit(900, undefined), null);
});

test('a route count is the difference of two simulator snapshots, 0 for a route never called', () => {
  const before = { byRoute: { 'compat:videoRetrieve': 10 } };
  const after = { byRoute: { 'compat:videoRetrieve': 250, 'compat:videoCreate': 7 } };
  assert.equal(routeDelta(before, after, 'compat:videoRetrieve'), 240);
  assert.equal(routeDelta(before, after, 'compat:videoCreate'), 7);
  assert.equal(routeDelta(before, after, 'compat:videoDelete'), 0);
});
