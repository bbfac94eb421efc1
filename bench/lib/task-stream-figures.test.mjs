import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkStatus, deriveFigures, renderSummary } from './summary.mjs';
import {
  describeTaskStreams,
  eventCounter,
  phaseSample,
  renderTaskStreams,
  summarizePhase,
  TASK_STREAM_CHECKS,
  taskStreamFigures,
  taskStreamsProblem,
} from './task-stream-figures.mjs';

const MIB = 1024 * 1024;
const STREAM =
  'retry: 1000\n\nid: 412\nevent: progress\ndata: {"status":"processing","note":"no event: here"}\n\n' +
  ': keep-alive\n\nid: 413\nevent: progress\ndata: {"progress":41}\n\nid: 415\nevent: completed\ndata: {}\n\n';

test('events are counted once each wherever the chunks split them; comments and retry lines are not', () => {
  for (let first = 0; first <= STREAM.length; first += 1) {
    for (const second of [first, Math.min(STREAM.length, first + 3), Math.min(STREAM.length, first + 7)]) {
      const count = eventCounter();
      const total =
        count(STREAM.slice(0, first)) + count(STREAM.slice(first, second)) + count(STREAM.slice(second));
      assert.equal(total, 3, `split at ${first} and ${second}`);
    }
  }
  const byteByByte = eventCounter();
  assert.equal(
    [...STREAM].reduce((sum, character) => sum + byteByByte(character), 0),
    3,
  );
  assert.equal(eventCounter()(': keep-alive\n\n: keep-alive\n\n'), 0);
});

test('an event on the very first line of a stream counts', () => {
  assert.equal(eventCounter()('event: progress\ndata: {}\n\n'), 1);
  const split = eventCounter();
  assert.equal(split('event'), 0);
  assert.equal(split(': progress\ndata: {}\n\n'), 1);
  assert.equal(split(': keep-alive\n\n'), 0);
});

test("a sample reads CPU as % of one core over the interval and leaves the sampler's own transaction out", () => {
  const previous = { atMs: 10_000, ticks: 500, rssBytes: 100 * MIB, transactions: 1000 };
  const current = { atMs: 12_000, ticks: 510, rssBytes: 150.26 * MIB, transactions: 1009 };
  // 10 ticks at 100/s over 2 s: 5 % of a core; 9 transactions, one of them the sampler's, over 2 s.
  assert.deepEqual(phaseSample(previous, current, 100), {
    rssMiB: 150.3,
    cpuPercent: 5,
    databaseTransactionsPerSecond: 4,
  });
  assert.throws(() => phaseSample(previous, { ...current, ticks: null }, 100), /gateway process is gone/);
  assert.throws(() => phaseSample(previous, { ...current, atMs: 10_000 }, 100), /apart in time/);
});

test('a phase summary gives the RSS range and median, the CPU mean and max, and refuses no samples', () => {
  const samples = [
    { rssMiB: 180, cpuPercent: 1, databaseTransactionsPerSecond: 2 },
    { rssMiB: 190, cpuPercent: 4, databaseTransactionsPerSecond: 3 },
    { rssMiB: 182, cpuPercent: 1, databaseTransactionsPerSecond: 1 },
    { rssMiB: 181, cpuPercent: 0, databaseTransactionsPerSecond: 2 },
  ];
  assert.deepEqual(summarizePhase(samples), {
    seconds: 4,
    rssMiB: { min: 180, median: 181.5, max: 190 },
    cpuPercent: { mean: 1.5, max: 4 },
    databaseTransactionsPerSecond: 2,
  });
  assert.throws(() => summarizePhase([]), /at least one sample/);
});

const phase = (rss, cpu, transactions) =>
  rss.map((rssMiB, index) => ({
    rssMiB,
    cpuPercent: cpu[index],
    databaseTransactionsPerSecond: transactions[index],
  }));

function figuresOf({
  opened = 1000,
  failed = 0,
  endedEarly = 0,
  delivered = 10_000,
  firstFailure = null,
} = {}) {
  return taskStreamFigures({
    settings: { streams: 1000, tasks: 100, updatesPerSecond: 100, tasksPerUpdate: 10, openBatch: 50 },
    opening: { opened, failed, firstFailure, endedEarly, openMs: 2400 },
    samples: {
      withoutStreams: phase([170, 174, 172], [0, 1, 0], [0.5, 0.5, 0.5]),
      idle: phase([185, 186, 186], [1, 2, 3], [2.5, 2.5, 2.5]),
      flow: phase([188, 192, 190], [3, 4, 5], [12.5, 12.5, 12.5]),
    },
    events: { delivered, expected: 10_000 },
  });
}

test('growth is the peak with the streams over the median without; the feed is the idle rate over the rate without', () => {
  const figures = figuresOf();
  assert.equal(figures.rssBeforeMiB, 172);
  assert.equal(figures.rssGrowthMiB, 20);
  assert.equal(figures.idleCpuPercent, 2);
  assert.equal(figures.feedTransactionsPerSecond, 2);
  assert.equal(figures.phases.flow.cpuPercent.mean, 4);
  assert.equal(figures.samples.idle.length, 3);
});

test("performance.md's two targets: RSS growth ≤ 150 MiB (goal 100), idle CPU ≤ 10 % of a core (goal 2)", () => {
  const [growth, cpu] = TASK_STREAM_CHECKS;
  assert.equal(growth.read(figuresOf()), 20);
  assert.equal(checkStatus(growth, 100), 'goal');
  assert.equal(checkStatus(growth, 150), 'must');
  assert.equal(checkStatus(growth, 150.1), 'missed');
  assert.equal(cpu.read(figuresOf()), 2);
  assert.equal(checkStatus(cpu, 2), 'goal');
  assert.equal(checkStatus(cpu, 9.9), 'must');
  assert.equal(checkStatus(cpu, 10.5), 'missed');
  assert.equal(growth.read(null), null);
});

test('streams that did not open, ended early or missed events are a problem; figures over a target are not', () => {
  assert.equal(taskStreamsProblem(figuresOf()), null);
  assert.equal(taskStreamsProblem(null), null);
  assert.equal(
    taskStreamsProblem(figuresOf({ opened: 900, failed: 100, firstFailure: 'status 429: too many streams' })),
    '100 of 1000 streams did not open (first: status 429: too many streams)',
  );
  assert.equal(
    taskStreamsProblem(figuresOf({ endedEarly: 3, delivered: 9970 })),
    '3 streams ended before the run did; 9970 of 10000 progress events delivered',
  );
});

test('the section and the progress line show every phase and flag a problem', () => {
  const text = renderTaskStreams(figuresOf());
  assert.match(text, /1000 of 1000 streams open on 100 running tasks/);
  assert.match(text, /\*\*\+20 MiB\*\*/);
  assert.match(text, /\| no stream .*\| 3 \| 170–174 \| 0\.3 \(1\) \| 0\.5 \| {2}\|/);
  assert.match(text, /\| streams open, idle .*\| 185–186 \| 2 \(3\) \| 2\.5 \|/);
  assert.match(text, /\| progress: 100 task updates\/s, in statements of 10 \|.*\| 10000 \/ 10000 \|/);
  assert.doesNotMatch(text, /❌/);
  assert.match(renderTaskStreams(figuresOf({ delivered: 10 })), /❌ 10 of 10000 progress events delivered/);
  assert.match(
    describeTaskStreams({ taskStreams: figuresOf() }),
    /^1000\/1000 streams open on 100 tasks, RSS \+20 MiB, CPU 0\.3 % without streams, 2 % idle, 4 % flowing/,
  );
});

test("the summary's check-list and section carry the gateway's task-streams run", () => {
  const run = {
    scenario: 'task-streams',
    kind: 'task-streams',
    family: 'task-events',
    target: 'gateway',
    round: 1,
    connections: 1000,
    requests: 1000,
    errors: { total: 0, firstFailure: null },
    taskStreams: figuresOf(),
  };
  const results = {
    meta: {
      mode: 'full',
      startedAt: '2026-01-01T00:00:00.000Z',
      machine: { cpu: 'test CPU', cores: 2, memoryGiB: '4.0', kernel: '6.0' },
      node: 'v20',
      wrk: 'wrk 4.1.0',
      commit: 'abc',
      clockTicks: 100,
      rounds: 1,
      durationSeconds: 1,
      warmupSeconds: 0,
      ttfbCount: 10,
      openStreams: 10,
      openStreamSeconds: 1,
      targets: ['gateway'],
      startFailures: [],
    },
    runs: [run],
    skipped: [],
  };
  const figures = deriveFigures(results);
  assert.equal(figures['task-streams/task-events'].byTarget.gateway.taskStreams.rssGrowthMiB, 20);
  const summary = renderSummary(results, figures);
  assert.match(
    summary,
    /\| open task event streams on one gateway .*RSS growth \| ≤ 150\.0 MiB \| ≤ 100\.0 MiB \| ✅ goal 20\.0 MiB \|/,
  );
  assert.match(summary, /\| open task event streams, idle: .* \| ≤ 10\.0 % \| ≤ 2\.0 % \| ✅ goal 2\.0 % \|/);
  assert.match(summary, /## 11\. Open task progress streams/);
  assert.match(summary, /\*\*gateway\*\*\n\n1000 of 1000 streams open/);
  const failed = {
    ...results,
    runs: [{ ...run, taskStreams: undefined, failure: 'the gateway process is gone' }],
  };
  const failedSummary = renderSummary(failed, deriveFigures(failed));
  assert.match(failedSummary, /No figures: the run failed/);
  assert.match(failedSummary, /idle: gateway CPU, mean, % of one core \| ≤ 10\.0 % \| ≤ 2\.0 % \| — \|/);
});
