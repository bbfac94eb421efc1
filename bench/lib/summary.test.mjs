import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CHECKS,
  checklistRows,
  checkStatus,
  deriveFigures,
  formatCheckValue,
  renderSummary,
} from './summary.mjs';

const check = (metric) => CHECKS.find((candidate) => candidate.metric.startsWith(metric));

test('a check passes the goal, only the must, or misses, in the right direction', () => {
  const addedP50 = check('added p50');
  assert.equal(checkStatus(addedP50, 200), 'goal');
  assert.equal(checkStatus(addedP50, 400), 'must');
  assert.equal(checkStatus(addedP50, 501), 'missed');
  const throughput = check('throughput at 64 connections vs direct');
  assert.equal(checkStatus(throughput, 0.3), 'goal');
  assert.equal(checkStatus(throughput, 0.2), 'must');
  assert.equal(checkStatus(throughput, 0.1), 'missed');
  assert.equal(checkStatus(throughput, undefined), null);
  assert.equal(checkStatus(check('concurrent open streams'), { failed: '256/1000 open at once' }), 'missed');
});

test('check values read in their unit, negative deltas included', () => {
  assert.equal(formatCheckValue(check('added p50'), 1234), '1.23 ms');
  assert.equal(formatCheckValue(check('added p50'), -2729), '−2.73 ms');
  assert.equal(formatCheckValue(check('added p50'), -42.4), '−42 µs');
  assert.equal(formatCheckValue(check('throughput at 64 connections vs direct'), 0.0567), '0.057×');
  assert.equal(formatCheckValue(check('gateway RSS'), 123.45), '123.5 MiB');
});

function wrkRun(scenario, family, target, round, rps, p50, cpu, extra = {}) {
  return {
    scenario,
    family,
    target,
    round,
    kind: 'wrk',
    requests: rps * 10,
    rps,
    latencyUs: { p50, p90: p50 * 1.5, p99: p50 * 3 },
    errors: { total: 0 },
    cpu: { targetUsPerRequest: cpu, contextUsPerRequest: {}, otherCores: 0.05 },
    rssMiB: { main: 90 },
    noisy: false,
    ...extra,
  };
}

function results(runs) {
  return {
    meta: {
      mode: 'smoke',
      startedAt: '2026-01-01T00:00:00.000Z',
      machine: { cpu: 'test CPU', cores: 2, memoryGiB: '4.0', kernel: '6.0' },
      node: 'v20',
      wrk: 'wrk 4.1.0',
      commit: 'abc',
      clockTicks: 100,
      rounds: 2,
      durationSeconds: 1,
      warmupSeconds: 0,
      ttfbCount: 10,
      openStreams: 10,
      openStreamSeconds: 1,
      targets: ['direct', 'proxy', 'gateway'],
      startFailures: [],
    },
    runs,
    skipped: [],
  };
}

test('figures and the check-list come from per-round comparisons against direct and the proxy', () => {
  const runs = [];
  for (const round of [1, 2]) {
    runs.push(
      wrkRun('latency', 'native', 'direct', round, 10000, 100, 60),
      wrkRun('latency', 'native', 'gateway', round, 2000, 100 + 200 * round, 300),
      wrkRun('throughput', 'native', 'direct', round, 20000, 3000, 60),
      wrkRun('throughput', 'native', 'proxy', round, 8000, 8000, 100),
      wrkRun('throughput', 'native', 'gateway', round, 4000 + 2000 * round, 15000, 120 + 100 * round),
    );
  }
  const figures = deriveFigures(results(runs));
  const gateway = figures['throughput/native'].byTarget.gateway;
  // Per round: 6000/20000 = 0.3 and 8000/20000 = 0.4 → median 0.35; vs proxy 0.75 and 1.0 → 0.875.
  assert.equal(gateway.comparisons.direct.throughputRatio, 0.35);
  assert.equal(gateway.comparisons.proxy.throughputRatio, 0.875);
  assert.equal(gateway.aggregate.cpuUsPerRequest, 270);
  assert.equal(figures['latency/native'].byTarget.gateway.comparisons.direct.addedP50Us, 300);

  const rows = checklistRows(figures);
  const cell = (metric) => rows.find((row) => row.check.metric.startsWith(metric)).cells['gateway/native'];
  assert.equal(cell('added p50').status, 'must');
  assert.equal(cell('CPU per small request').status, 'missed');
  assert.equal(cell('throughput at 64 connections vs direct').status, 'goal');
  assert.equal(cell('64 KiB prompt'), null);
  assert.equal(cell('added p99').text, '900 µs');
  const proxyCell = (metric) => rows.find((row) => row.check.metric.startsWith(metric)).cells['proxy/native'];
  assert.equal(proxyCell('CPU per small request').text, '100 µs');
  assert.equal(proxyCell('CPU per small request').status, 'goal');
  assert.equal(proxyCell('throughput at 64 connections vs the reference proxy'), null);

  const markdown = renderSummary(results(runs), figures);
  assert.match(
    markdown,
    /\| added p50, non-stream, 1 connection \| ≤ 500 µs \| ≤ 250 µs \| ✅ must 300 µs \|/,
  );
  assert.match(
    markdown,
    /\| CPU per small request \(64 connections\) \| ≤ 250 µs \| ≤ 150 µs \| ❌ 270 µs \| — \| — \| — \| ✅ goal 100 µs \/ — \|/,
  );
  assert.match(markdown, /\| throughput at 64 connections vs the reference proxy \|.* \| — \|\n/);
  assert.match(markdown, /\| \*\*gateway\*\* \| 0\.350× \| /);
});

test('open streams that were not all open at once fail the check whatever the memory', () => {
  const run = {
    scenario: 'open-streams',
    family: 'openai',
    target: 'gateway',
    round: 1,
    kind: 'open-streams',
    requests: 1000,
    openStreams: {
      streams: 1000,
      completed: 1000,
      peakOpen: 256,
      allOpenAfterMs: 30000,
      durationMs: 40000,
      firstError: null,
    },
    memory: { mainAtAllOpenMiB: 80, peakMainMiB: 90, peakWorkersMiB: 300 },
    errors: { total: 0 },
    cpu: { targetUsPerRequest: 100, contextUsPerRequest: {}, otherCores: 0 },
    rssMiB: { main: 80 },
    noisy: false,
  };
  const rows = checklistRows(deriveFigures(results([run])));
  const cell = rows.find((row) => row.check.metric.startsWith('concurrent open streams')).cells[
    'gateway/openai'
  ];
  assert.equal(cell.status, 'missed');
  assert.match(cell.text, /256\/1000 open at once/);
});
