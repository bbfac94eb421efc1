// The figures of the task-streams scenario (bench/lib/task-streams.mjs measures them): events counted
// off the wire, one sample a second of the gateway's RSS and CPU and of the database's transactions, each
// phase's summary, performance.md's two targets for open task event streams, and the summary's section.
import { CLOCK_TICKS_PER_SECOND } from './proc-stats.mjs';

const MIB = 1024 * 1024;
/** What `text/event-stream` writes at the start of an event's name line; comments and `retry:` have none. */
const EVENT_LINE = '\nevent:';
/** The sampler's own statement per sample (the transaction count of pg_stat_database). */
export const SAMPLER_TRANSACTIONS = 1;

/** performance.md: 1,000 open task event streams on one gateway. */
export const TASK_STREAM_CHECKS = [
  {
    metric: 'open task event streams on one gateway (1,000 in performance.md): RSS growth',
    must: 150,
    goal: 100,
    unit: 'MiB',
    lowerIsBetter: true,
    read: (figures) => figures?.rssGrowthMiB ?? null,
  },
  {
    metric: 'open task event streams, idle: gateway CPU, mean, % of one core',
    must: 10,
    goal: 2,
    unit: '%',
    lowerIsBetter: true,
    read: (figures) => figures?.idleCpuPercent ?? null,
  },
];

const round = (value) => Math.round(value * 10) / 10;

/**
 * Counts the events of one stream, chunk by chunk. A chunk may end inside `\nevent:`, so the tail that
 * could begin one is carried into the next chunk; the stream's start counts as a line start.
 */
export function eventCounter() {
  let carried = '\n';
  return (chunk) => {
    const text = carried + chunk;
    let count = 0;
    for (let at = text.indexOf(EVENT_LINE); at !== -1; at = text.indexOf(EVENT_LINE, at + 1)) count += 1;
    carried = text.slice(1 - EVENT_LINE.length);
    return count;
  };
}

/**
 * One sample from two readings ({ atMs, ticks, rssBytes, transactions }) about a second apart: the RSS
 * at the second one, the CPU over the interval as % of one core, the database's transactions a second
 * (less the sampler's own).
 */
export function phaseSample(previous, current, ticksPerSecond = CLOCK_TICKS_PER_SECOND) {
  if (current.ticks === null || previous.ticks === null) throw new Error('the gateway process is gone');
  const elapsedSeconds = (current.atMs - previous.atMs) / 1000;
  if (!(elapsedSeconds > 0)) throw new Error('two readings of one sample must be apart in time');
  return {
    rssMiB: round(current.rssBytes / MIB),
    cpuPercent: round(((current.ticks - previous.ticks) / ticksPerSecond / elapsedSeconds) * 100),
    databaseTransactionsPerSecond: round(
      (current.transactions - previous.transactions - SAMPLER_TRANSACTIONS) / elapsedSeconds,
    ),
  };
}

function median(values) {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** A phase's samples in short: RSS range and median, CPU mean and max, transactions a second (mean). */
export function summarizePhase(samples) {
  if (samples.length === 0) throw new Error('a phase needs at least one sample');
  const rss = samples.map((sample) => sample.rssMiB);
  const cpu = samples.map((sample) => sample.cpuPercent);
  return {
    seconds: samples.length,
    rssMiB: { min: Math.min(...rss), median: round(median(rss)), max: Math.max(...rss) },
    cpuPercent: { mean: round(mean(cpu)), max: Math.max(...cpu) },
    databaseTransactionsPerSecond: round(mean(samples.map((sample) => sample.databaseTransactionsPerSecond))),
  };
}

/**
 * The run's figures. RSS growth: the peak with the streams open (idle or flowing) less the median
 * without them; the feed's transactions: the idle phase's rate less the rate without streams (the
 * stack's workers and sweeps write to the same database all along).
 */
export function taskStreamFigures({ settings, opening, samples, events }) {
  const withoutStreams = summarizePhase(samples.withoutStreams);
  const idle = summarizePhase(samples.idle);
  const flow = summarizePhase(samples.flow);
  return {
    ...settings,
    ...opening,
    phases: { withoutStreams, idle, flow },
    events,
    rssBeforeMiB: withoutStreams.rssMiB.median,
    rssGrowthMiB: round(Math.max(idle.rssMiB.max, flow.rssMiB.max) - withoutStreams.rssMiB.median),
    idleCpuPercent: idle.cpuPercent.mean,
    feedTransactionsPerSecond: round(
      idle.databaseTransactionsPerSecond - withoutStreams.databaseTransactionsPerSecond,
    ),
    samples,
  };
}

/** What went wrong with the streams themselves (not a figure over its target); null when nothing. */
export function taskStreamsProblem(figures) {
  if (!figures) return null;
  const problems = [];
  if (figures.opened < figures.streams) {
    const first = figures.firstFailure ? ` (first: ${figures.firstFailure.slice(0, 120)})` : '';
    problems.push(`${figures.streams - figures.opened} of ${figures.streams} streams did not open${first}`);
  }
  if (figures.endedEarly > 0) problems.push(`${figures.endedEarly} streams ended before the run did`);
  if (figures.events.delivered < figures.events.expected)
    problems.push(`${figures.events.delivered} of ${figures.events.expected} progress events delivered`);
  return problems.length > 0 ? problems.join('; ') : null;
}

/** The progress line of one run. */
export function describeTaskStreams(record) {
  const figures = record.taskStreams;
  const { withoutStreams, idle, flow } = figures.phases;
  return (
    `${figures.opened}/${figures.streams} streams open on ${figures.tasks} tasks, RSS +${figures.rssGrowthMiB} MiB, ` +
    `CPU ${withoutStreams.cpuPercent.mean} % without streams, ${idle.cpuPercent.mean} % idle, ${flow.cpuPercent.mean} % flowing, ` +
    `${figures.events.delivered}/${figures.events.expected} progress events, ` +
    `db ${withoutStreams.databaseTransactionsPerSecond} → ${idle.databaseTransactionsPerSecond} transactions/s`
  );
}

const cell = (text) => String(text).replaceAll('|', '\\|');

/** The summary's section for one target's run. */
export function renderTaskStreams(figures) {
  const { withoutStreams, idle, flow } = figures.phases;
  const row = (phase, summary, events) =>
    `| ${phase} | ${summary.seconds} | ${summary.rssMiB.min}–${summary.rssMiB.max} | ` +
    `${summary.cpuPercent.mean} (${summary.cpuPercent.max}) | ${summary.databaseTransactionsPerSecond} | ${events} |`;
  const problem = taskStreamsProblem(figures);
  return [
    `${figures.opened} of ${figures.streams} streams open on ${figures.tasks} running tasks of the stack's account ` +
      `after ${(figures.openMs / 1000).toFixed(2)} s (opened ${figures.openBatch} at a time; each counted open at its ` +
      `first event). Gateway RSS ${figures.rssBeforeMiB} MiB before the streams (median without them), ` +
      `**+${figures.rssGrowthMiB} MiB** at the peak with them; **${figures.idleCpuPercent} %** of one core while they ` +
      `are idle; the feed's reads: ${figures.feedTransactionsPerSecond} transactions/s over the rate without streams.` +
      (problem ? ` ❌ ${cell(problem)}` : ''),
    '',
    '| phase | s | gateway RSS MiB | CPU % of one core, mean (max) | db transactions/s | progress events delivered |',
    '|---|---|---|---|---|---|',
    row("no stream (the stack's workers and sweeps only)", withoutStreams, ''),
    row('streams open, idle (heartbeats only)', idle, ''),
    row(
      `progress: ${figures.updatesPerSecond} task updates/s, in statements of ${figures.tasksPerUpdate}`,
      flow,
      `${figures.events.delivered} / ${figures.events.expected}`,
    ),
  ].join('\n');
}
