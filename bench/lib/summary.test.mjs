import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bodyMemoryFigures } from './body-memory.mjs';
import {
  BODY_MEMORY_CHECK,
  CHECKS,
  checklistRows,
  checkStatus,
  deriveFigures,
  formatCheckValue,
  renderSummary,
  TASK_CHECKS,
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

const taskCheck = (metric) => TASK_CHECKS.find((candidate) => candidate.metric.startsWith(metric));

function gatewayTasks() {
  return {
    count: 200,
    completionMs: 3000,
    drained: true,
    statuses: { total: 200, open: 0, byStatus: { completed: 200 } },
    failureReasons: [],
    creation: { seconds: 0.5, ratePerSecond: 400, upstreamCreates: 150 },
    polling: { seconds: 18, polls: 2600, pollsPerTask: 13, upstreamCreates: 50, workerRssMiB: 120 },
    steady: {
      seconds: 6,
      polls: 1000,
      upstreamCreates: 0,
      workerUsPerPoll: 800,
      postgresUsPerPoll: 300,
      databasePerPoll: {
        transactions: 3.5,
        rowsFetched: 2,
        rowsInserted: 0.5,
        rowsUpdated: 1,
        rowsDeleted: 0,
      },
    },
    perTask: { workerUs: 15000, gatewayUs: 2000, database: { transactions: 40 } },
    lags: {
      count: 200,
      lagP50Ms: 600,
      lagP99Ms: 1900,
      lagMaxMs: 2100,
      detectP50Ms: 550,
      detectP99Ms: 1000,
      recordP50Ms: 20,
      recordP99Ms: 900,
      intervalP50Ms: 1000,
      beyondIntervalP99Ms: 900,
      withinGoalShare: 1,
      unmatched: 0,
    },
  };
}

function taskResults(runs) {
  const outcome = results(runs);
  outcome.meta.taskCount = 200;
  outcome.meta.taskCompletionMs = 3000;
  return outcome;
}

test('the task scenario renders its phases and scores the lag beyond the poll interval and the worker CPU', () => {
  const tasks = gatewayTasks();
  const run = {
    ...wrkRun('tasks', 'video-tasks', 'gateway', 1, 400, 20000, 900),
    kind: 'tasks',
    requests: 200,
    tasks,
  };
  const outcome = taskResults([run]);
  const markdown = renderSummary(outcome, deriveFigures(outcome));
  assert.match(markdown, /## 8\. Video tasks/);
  assert.match(
    markdown,
    /\| \*\*gateway\*\* \| 400 \| — \| 20\.000 \| 60\.000 \| 0 \/ 200 \| 900 \| — \| 150 \|/,
  );
  assert.match(
    markdown,
    /\| completed 200 \| 18\.0 \| 2,600 \| 13\.0 \| 15,000 \| 2,000 \| 40\.0 \| 120\.0 \|/,
  );
  assert.match(markdown, /\| 6\.0 \| 1,000 \| 0 \| 800 \| 300 \| 3\.50 \| 2\.00 \| 1\.50 \|/);
  assert.match(markdown, /\| lag from upstream completion .* \| ≤ 5\.0 s \| ≤ 1\.0 s \| ✅ goal 0\.9 s \|/);
  assert.match(
    markdown,
    /\| worker CPU per poll \(steady window\) \| ≤ 2\.00 ms \| ≤ 500 µs \| ✅ must 800 µs \|/,
  );
  // Without the plain insert-and-enqueue in the run, the creation rate has nothing to be scored against.
  assert.match(
    markdown,
    /\| task creation at 32 connections vs the plain insert-and-enqueue \| ≥ 0\.500× \| ≥ 0\.800× \| — \|/,
  );
  const lagCheck = taskCheck('lag from upstream completion');
  assert.equal(
    checkStatus(lagCheck, lagCheck.read({ ...tasks, lags: { beyondIntervalP99Ms: 6_100 } })),
    'missed',
  );
  assert.equal(lagCheck.read({ ...tasks, lags: { beyondIntervalP99Ms: null } }), null);
  run.tasks = { ...tasks, steady: null };
  const noWindow = renderSummary(outcome, deriveFigures(outcome));
  assert.match(noWindow, /No steady window: every task ended within 11 s of the last creation answer\./);
  assert.match(noWindow, /\| worker CPU per poll \(steady window\) \| ≤ 2\.00 ms \| ≤ 500 µs \| — \|/);
});

test('task creations are scored against the plain insert-and-enqueue of the same run', () => {
  const gateway = {
    ...wrkRun('tasks', 'video-tasks', 'gateway', 1, 300, 90000, 2250),
    kind: 'tasks',
    requests: 200,
    tasks: gatewayTasks(),
  };
  const baseline = {
    ...wrkRun('tasks', 'video-tasks', 'insert-enqueue', 1, 500, 40000, 700),
    kind: 'tasks',
    requests: 200,
    cpu: { targetUsPerRequest: 700, contextUsPerRequest: { postgres: 310, redis: 90 }, otherCores: 0.1 },
  };
  const outcome = taskResults([baseline, gateway]);
  const figures = deriveFigures(outcome);
  const entry = figures['tasks/video-tasks'];
  // 300 / 500 creations per second.
  assert.equal(entry.byTarget.gateway.comparisons['insert-enqueue'].throughputRatio, 0.6);
  assert.equal(entry.byTarget['insert-enqueue'].tasks, null);
  const creationCheck = taskCheck('task creation at 32 connections');
  assert.equal(checkStatus(creationCheck, 0.6), 'must');
  assert.equal(checkStatus(creationCheck, 0.8), 'goal');
  assert.equal(checkStatus(creationCheck, 0.49), 'missed');

  const markdown = renderSummary(outcome, figures);
  assert.match(
    markdown,
    /\| \*\*insert-enqueue\*\* \| 500 \| — \| 40\.000 \| 120\.000 \| 0 \/ 200 \| 700 \| postgres 310, redis 90 \| — \|/,
  );
  assert.match(markdown, /\| \*\*gateway\*\* \| 300 \| 0\.600× \| 90\.000 \|/);
  assert.match(
    markdown,
    /\| task creation at 32 connections vs the plain insert-and-enqueue \| ≥ 0\.500× \| ≥ 0\.800× \| ✅ must 0\.600× \|/,
  );
  // The baseline has no tasks of its own to report: one gateway block of phase tables, one check table.
  assert.equal(markdown.match(/\| target \(performance\.md\) \| must \| goal \| measured \|/g).length, 1);
});

const MIB = 1024 * 1024;

function bodyMemoryRun(round, growthMiB, errors = { total: 0, firstFailure: null }) {
  return {
    scenario: 'body-memory',
    kind: 'body-memory',
    family: 'alpha-reference',
    target: 'gateway',
    round,
    connections: 1,
    requests: 1,
    errors,
    bodyMemory: bodyMemoryFigures({
      bodyBytes: 20 * MIB,
      rssBeforeBytes: 120 * MIB,
      peakBytes: (120 + growthMiB) * MIB,
      rssAfterBytes: 126 * MIB,
      answerMs: 140,
    }),
  };
}

test('the 20 MiB body is scored on the worst peak growth of the rounds that answered a task', () => {
  assert.equal(checkStatus(BODY_MEMORY_CHECK, 1.9), 'goal');
  assert.equal(checkStatus(BODY_MEMORY_CHECK, 2.5), 'must');
  assert.equal(checkStatus(BODY_MEMORY_CHECK, 3.01), 'missed');
  const outcome = results([
    bodyMemoryRun(0, 80),
    bodyMemoryRun(1, 50),
    bodyMemoryRun(2, 30),
    bodyMemoryRun(3, 44),
    bodyMemoryRun(4, 1, { total: 1, firstFailure: 'status 413: larger | than the limit' }),
  ]);
  const figures = deriveFigures(outcome);
  // Rounds 1-3: 50, 30 and 44 MiB over 20 MiB → worst 50 / 20 = 2.5 (median 2.2); round 0 is the check.
  assert.equal(BODY_MEMORY_CHECK.read(figures, 'gateway'), 2.5);
  assert.equal(BODY_MEMORY_CHECK.read(figures, 'gateway-warn'), null);
  const markdown = renderSummary(outcome, figures);
  assert.match(
    markdown,
    /\| a 20 MB request body validated \(alpha reference images\): peak RSS growth, worst round \| ≤ 3× body \| ≤ 2× body \| ✅ must 2\.500× \|/,
  );
  assert.match(markdown, /## 9\. A 20 MiB alpha reference2video body/);
  assert.match(markdown, /\| 0 \(check\) \| 20,971,520 \| 120\.0 \| 80\.0 \| 4\.000× \| 6\.0 \| 140 \|/);
  assert.match(markdown, /\| 2 \| 20,971,520 \| 120\.0 \| 30\.0 \| 1\.500× \| 6\.0 \| 140 \|/);
  assert.match(
    markdown,
    /\| 4 \| 20,971,520 \| 120\.0 \| 1\.0 \| 0\.050× ❌ status 413: larger \\\| than the limit \|/,
  );
  assert.match(
    markdown,
    /\| \*\*median of 3\*\* \| 20,971,520 \| 120\.0 \| 44\.0 \| 2\.200× \| 6\.0 \| — \|/,
  );
  assert.match(markdown, /\| \*\*worst of 3\*\* \| {2}\| {2}\| {2}\| 2\.500× \| {2}\| {2}\|/);
});

test('without the body-memory scenario its check-list row says it was not measured', () => {
  const markdown = renderSummary(results([]), deriveFigures(results([])));
  assert.match(markdown, /\| a 20 MB request body validated .* \| ≤ 3× body \| ≤ 2× body \| — \|/);
  assert.doesNotMatch(markdown, /## 9\./);
});
