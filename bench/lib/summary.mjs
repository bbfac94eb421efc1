// From the raw runs to the figures people read: medians across rounds, per-round comparisons against
// direct / the reference proxy, the check-list of the targets in performance.md, and the Markdown of
// summary.md and docs/benchmarks.md.
import { formatMiB, RETAINED_AFTER_MS, summarizeBodyMemory } from './body-memory.mjs';
import { renderBaselineSection } from './baseline-comparison.mjs';
import { renderTracingSection } from './tracing-cost.mjs';
import { compareToReference, median } from './stats.mjs';
import { ALPHA_REFERENCE_FAMILY, FAMILY_LABELS, SCENARIOS, TASK_EVENTS_FAMILY } from './scenarios.mjs';
import { renderTaskStreams, TASK_STREAM_CHECKS } from './task-stream-figures.mjs';
import {
  CREATION_VS_BASELINE,
  LAG_BEYOND_INTERVAL_MS,
  STATISTICS_FLUSH_MS,
  WORKER_CPU_PER_POLL_US,
} from './task-figures.mjs';
import { TARGET_DESCRIPTIONS } from './targets.mjs';

/** What a target is compared with when measured in the same scenario (the last: video task creations). */
const REFERENCES = ['direct', 'proxy', 'insert-enqueue'];

function runsOf(runs, scenario, family, target) {
  return runs.filter(
    (run) => run.scenario === scenario && run.family === family && run.target === target && run.round >= 1,
  );
}

/** Medians across the measured rounds of one (scenario, family, target). */
export function aggregateTarget(runs) {
  if (runs.length === 0) return null;
  const clean = runs.filter((run) => !run.noisy);
  const used = clean.length > 0 ? clean : runs;
  const medianOf = (pick) => median(used.map(pick));
  const contextNames = [...new Set(used.flatMap((run) => Object.keys(run.cpu?.contextUsPerRequest ?? {})))];
  return {
    rounds: runs.length,
    noisyRounds: runs.filter((run) => run.noisy).length,
    requests: runs.reduce((sum, run) => sum + (run.requests ?? 0), 0),
    rps: medianOf((run) => run.rps),
    p50Us: medianOf((run) => run.latencyUs?.p50),
    p90Us: medianOf((run) => run.latencyUs?.p90),
    p99Us: medianOf((run) => run.latencyUs?.p99),
    errors: runs.reduce((sum, run) => sum + (run.errors?.total ?? 0), 0),
    cpuUsPerRequest: medianOf((run) => run.cpu?.targetUsPerRequest),
    contextUsPerRequest: Object.fromEntries(
      contextNames.map((name) => [name, medianOf((run) => run.cpu?.contextUsPerRequest?.[name])]),
    ),
    rssMiB: Math.max(...runs.map((run) => run.rssMiB?.main ?? 0)),
    maxOtherCores: Math.max(...runs.map((run) => run.cpu?.otherCores ?? 0)),
  };
}

/** Everything summary.md shows, as data: per scenario and family, per target: medians and comparisons. */
export function deriveFigures(results) {
  const figures = {};
  for (const scenario of SCENARIOS) {
    for (const family of Object.keys(FAMILY_LABELS)) {
      const runs = results.runs.filter((run) => run.scenario === scenario.name && run.family === family);
      if (runs.length === 0) continue;
      const targets = [...new Set(runs.map((run) => run.target))];
      const byTarget = {};
      for (const target of targets) {
        const targetRuns = runsOf(runs, scenario.name, family, target);
        const comparisons = {};
        for (const reference of REFERENCES) {
          if (reference === target || !targets.includes(reference)) continue;
          comparisons[reference] = compareToReference(runs, target, reference);
        }
        byTarget[target] = {
          aggregate: aggregateTarget(targetRuns),
          comparisons,
          openStreams: scenario.kind === 'open-streams' ? openStreamsFigures(targetRuns) : null,
          tasks: scenario.kind === 'tasks' ? taskFigures(targetRuns) : null,
          // Round 0 too: the check request, the first 20 MiB body the process took.
          bodyMemory:
            scenario.kind === 'body-memory'
              ? summarizeBodyMemory(runs.filter((run) => run.target === target))
              : null,
          taskStreams: scenario.kind === 'task-streams' ? (targetRuns.at(-1)?.taskStreams ?? null) : null,
        };
      }
      figures[`${scenario.name}/${family}`] = { scenario, family, targets, byTarget };
    }
  }
  return figures;
}

/** The task scenario's one run: its `tasks` figures, with the creation load's and why it failed, if it did. */
function taskFigures(runs) {
  const run = runs.at(-1);
  if (!run?.tasks) return null;
  return { ...run.tasks, failure: run.failure ?? null };
}

function openStreamsFigures(runs) {
  const run = runs.at(-1);
  if (!run?.openStreams) return null;
  const { streams, completed, peakOpen, allOpenAfterMs, durationMs, firstError } = run.openStreams;
  return {
    streams,
    completed,
    peakOpen,
    held: completed === streams && peakOpen === streams,
    allOpenAfterMs,
    durationMs,
    firstError,
    mainAtAllOpenMiB: run.memory.mainAtAllOpenMiB,
    peakMainMiB: run.memory.peakMainMiB,
    peakWorkersMiB: run.memory.peakWorkersMiB,
    cpuUsPerStream: run.cpu?.targetUsPerRequest,
  };
}

// ---- the check-list of performance.md ----------------------------------------------------------------

/**
 * performance.md's targets for video tasks, read from one gateway target's task figures and its
 * comparisons in the same run (the creation rate against the plain insert-and-enqueue's).
 */
export const TASK_CHECKS = [
  {
    metric: 'task creation at 32 connections vs the plain insert-and-enqueue',
    ...CREATION_VS_BASELINE,
    unit: '×',
    lowerIsBetter: false,
    read: (_tasks, comparisons) => comparisons?.['insert-enqueue']?.throughputRatio ?? null,
  },
  {
    metric: 'lag from upstream completion to `completed`, p99, beyond one poll interval',
    must: LAG_BEYOND_INTERVAL_MS.must / 1000,
    goal: LAG_BEYOND_INTERVAL_MS.goal / 1000,
    unit: 's',
    lowerIsBetter: true,
    read: (tasks) =>
      typeof tasks.lags.beyondIntervalP99Ms === 'number' ? tasks.lags.beyondIntervalP99Ms / 1000 : null,
  },
  {
    metric: 'worker CPU per poll (steady window)',
    ...WORKER_CPU_PER_POLL_US,
    unit: 'µs',
    lowerIsBetter: true,
    read: (tasks) => tasks.steady?.workerUsPerPoll ?? null,
  },
];

/**
 * performance.md's target for large bodies, read from the body-memory scenario of one gateway target:
 * the main process's peak RSS growth over the body's size in its worst round (the first, in a process
 * that never held such a body, is usually the worst: what the allocator keeps afterwards is reused).
 */
export const BODY_MEMORY_CHECK = {
  metric: 'a 20 MB request body validated (alpha reference images): peak RSS growth, worst round',
  must: 3,
  goal: 2,
  unit: '×',
  lowerIsBetter: true,
  read: (figures, target) =>
    figures[`body-memory/${ALPHA_REFERENCE_FAMILY}`]?.byTarget[target]?.bodyMemory?.worstRatio ?? null,
};

/** [metric, must, goal, unit, direction, how to read it from the figures for one gateway target]. */
export const CHECKS = [
  {
    metric: 'added p50, non-stream, 1 connection',
    must: 500,
    goal: 250,
    unit: 'µs',
    lowerIsBetter: true,
    read: (figures, family, target) =>
      figures[`latency/${family}`]?.byTarget[target]?.comparisons.direct?.addedP50Us,
  },
  {
    metric: 'added p99, non-stream, 1 connection',
    must: 3000,
    goal: 1500,
    unit: 'µs',
    lowerIsBetter: true,
    read: (figures, family, target) =>
      figures[`latency/${family}`]?.byTarget[target]?.comparisons.direct?.addedP99Us,
  },
  {
    metric: 'CPU per small request (64 connections)',
    must: 250,
    goal: 150,
    unit: 'µs',
    lowerIsBetter: true,
    read: (figures, family, target) =>
      figures[`throughput/${family}`]?.byTarget[target]?.aggregate?.cpuUsPerRequest,
  },
  {
    metric: 'throughput at 64 connections vs direct',
    must: 0.15,
    goal: 0.25,
    unit: '×',
    lowerIsBetter: false,
    read: (figures, family, target) =>
      figures[`throughput/${family}`]?.byTarget[target]?.comparisons.direct?.throughputRatio,
  },
  {
    metric: 'throughput at 64 connections vs the reference proxy',
    must: 0.5,
    goal: 0.75,
    unit: '×',
    lowerIsBetter: false,
    read: (figures, family, target) =>
      figures[`throughput/${family}`]?.byTarget[target]?.comparisons.proxy?.throughputRatio,
  },
  {
    metric: 'added time to first streamed byte (p50)',
    must: 1000,
    goal: 500,
    unit: 'µs',
    lowerIsBetter: true,
    read: (figures, family, target) =>
      figures[`ttfb/${family}`]?.byTarget[target]?.comparisons.direct?.addedP50Us,
  },
  {
    metric: 'streaming throughput at 64 connections vs direct',
    must: 0.4,
    goal: 0.5,
    unit: '×',
    lowerIsBetter: false,
    read: (figures, family, target) =>
      figures[`stream/${family}`]?.byTarget[target]?.comparisons.direct?.throughputRatio,
  },
  {
    metric: '64 KiB prompt, CPU per request',
    must: 600,
    goal: 400,
    unit: 'µs',
    lowerIsBetter: true,
    read: (figures, family, target) =>
      figures[`large-prompt/${family}`]?.byTarget[target]?.aggregate?.cpuUsPerRequest,
  },
  {
    metric: 'gateway RSS at steady load (end of the 64-connection runs)',
    must: 150,
    goal: 100,
    unit: 'MiB',
    lowerIsBetter: true,
    read: (figures, family, target) => figures[`throughput/${family}`]?.byTarget[target]?.aggregate?.rssMiB,
  },
  {
    metric: 'concurrent open streams held, peak RSS',
    must: 300,
    goal: 200,
    unit: 'MiB',
    lowerIsBetter: true,
    read: (figures, family, target) => {
      const open = figures[`open-streams/${family}`]?.byTarget[target]?.openStreams;
      if (!open) return undefined;
      return open.held
        ? open.peakMainMiB
        : { failed: `${open.peakOpen}/${open.streams} open at once, ${open.completed} completed` };
    },
  },
];

/** "goal", "must" or "missed" for one measured value; null when it was not measured. */
export function checkStatus(check, value) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return 'missed';
  const meets = (limit) => (check.lowerIsBetter ? value <= limit : value >= limit);
  if (meets(check.goal)) return 'goal';
  return meets(check.must) ? 'must' : 'missed';
}

const STATUS_MARKS = { goal: '✅ goal', must: '✅ must', missed: '❌' };

export function formatCheckValue(check, value) {
  if (typeof value === 'object') return value.failed;
  if (check.unit === '×') return `${value.toFixed(3)}×`;
  if (check.unit === 'µs') {
    const sign = value < 0 ? '−' : '';
    const size = Math.abs(value);
    return size >= 1000 ? `${sign}${(size / 1000).toFixed(2)} ms` : `${sign}${Math.round(size)} µs`;
  }
  return `${value.toFixed(1)} ${check.unit}`;
}

/**
 * One cell per gateway target and family, and the reference proxy's own figure for the same metric:
 * absolute targets (µs, ms, MiB) move with the machine, and what the thin proxy alone scores on them in
 * the same run shows how much of a figure is the machine's.
 */
export function checklistRows(figures) {
  return CHECKS.map((check) => {
    const cells = {};
    for (const target of ['gateway', 'gateway-warn', 'proxy']) {
      for (const family of Object.keys(FAMILY_LABELS)) {
        const value = check.read(figures, family, target);
        const status = checkStatus(check, value);
        cells[`${target}/${family}`] = status
          ? { status, value, text: formatCheckValue(check, value) }
          : null;
      }
    }
    return { check, cells };
  });
}

// ---- Markdown ----------------------------------------------------------------------------------------

const ms = (us) => (typeof us === 'number' ? (us / 1000).toFixed(3) : '—');
const signedMs = (us) =>
  typeof us === 'number' ? `${us >= 0 ? '+' : '−'}${Math.abs(us / 1000).toFixed(3)}` : '—';
const integer = (value) => (typeof value === 'number' ? Math.round(value).toLocaleString('en-US') : '—');
const times = (value) => (typeof value === 'number' ? `${value.toFixed(3)}×` : '—');
const mib = (value) => (typeof value === 'number' && value > 0 ? value.toFixed(1) : '—');

function table(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

function contextText(context) {
  const parts = Object.entries(context ?? {})
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => `${name} ${Math.round(value)}`);
  return parts.length > 0 ? parts.join(', ') : '—';
}

function comparisonCells(comparison, withThroughput) {
  if (!comparison) return withThroughput ? ['—', '—', '—'] : ['—', '—'];
  const noisy = comparison.noisy ? ' ⚠' : '';
  const cells = [`${signedMs(comparison.addedP50Us)}${noisy}`, signedMs(comparison.addedP99Us)];
  return withThroughput ? [`${times(comparison.throughputRatio)}${noisy}`, ...cells] : cells;
}

function wrkSection(entry) {
  const absolute = entry.targets.map((target) => {
    const figures = entry.byTarget[target].aggregate;
    return [
      `**${target}**`,
      integer(figures.rps),
      ms(figures.p50Us),
      ms(figures.p90Us),
      ms(figures.p99Us),
      `${integer(figures.errors)} / ${integer(figures.requests)}`,
      integer(figures.cpuUsPerRequest),
      contextText(figures.contextUsPerRequest),
      mib(figures.rssMiB),
      `${figures.noisyRounds}/${figures.rounds}`,
    ];
  });
  const comparisons = entry.targets
    .filter((target) => target !== 'direct')
    .map((target) => {
      const { comparisons: byReference } = entry.byTarget[target];
      return [
        `**${target}**`,
        ...comparisonCells(byReference.direct, true),
        ...comparisonCells(byReference.proxy, true),
      ];
    });
  return [
    table(
      [
        'target',
        'req/s',
        'p50 ms',
        'p90 ms',
        'p99 ms',
        'errors / requests',
        'CPU µs/req',
        'context CPU µs/req',
        'RSS MiB',
        'noisy rounds',
      ],
      absolute,
    ),
    '',
    table(
      ['target', '× direct', '+p50 vs direct', '+p99 vs direct', '× proxy', '+p50 vs proxy', '+p99 vs proxy'],
      comparisons,
    ),
  ].join('\n');
}

function ttfbSection(entry) {
  const rows = entry.targets.map((target) => {
    const { aggregate: figures, comparisons } = entry.byTarget[target];
    return [
      `**${target}**`,
      ms(figures.p50Us),
      ms(figures.p90Us),
      ms(figures.p99Us),
      `${integer(figures.errors)}`,
      integer(figures.cpuUsPerRequest),
      ...comparisonCells(comparisons.direct, false),
      ...comparisonCells(comparisons.proxy, false),
    ];
  });
  return table(
    [
      'target',
      'TTFB p50 ms',
      'p90 ms',
      'p99 ms',
      'errors',
      'CPU µs/req',
      '+p50 vs direct',
      '+p99 vs direct',
      '+p50 vs proxy',
      '+p99 vs proxy',
    ],
    rows,
  );
}

function openStreamsSection(entry) {
  const rows = entry.targets.map((target) => {
    const open = entry.byTarget[target].openStreams;
    if (!open) return [`**${target}**`, '—', '—', '—', '—', '—', '—', '—', '—'];
    return [
      `**${target}**`,
      `${open.completed} / ${open.streams}${open.held ? '' : ' ❌'}`,
      `${open.peakOpen}`,
      open.allOpenAfterMs === null ? 'never' : `${(open.allOpenAfterMs / 1000).toFixed(2)} s`,
      mib(open.mainAtAllOpenMiB),
      mib(open.peakMainMiB),
      mib(open.peakWorkersMiB),
      integer(open.cpuUsPerStream),
      open.firstError ? open.firstError.slice(0, 80).replaceAll('|', '\\|') : '',
    ];
  });
  return table(
    [
      'target',
      'completed',
      'peak open at once',
      'all open after',
      'RSS when all open MiB',
      'peak RSS MiB',
      'workers peak RSS MiB',
      'CPU µs/stream',
      'first error',
    ],
    rows,
  );
}

const seconds = (ms) => (typeof ms === 'number' ? `${(ms / 1000).toFixed(2)} s` : '—');
const decimal = (value, digits = 2) => (typeof value === 'number' ? value.toFixed(digits) : '—');

/** The steady window's part before any upstream completion: what polls alone cost (a run with a long completion). */
function quietWindowTable(quiet) {
  const perPoll = quiet.databasePerPoll ?? {};
  return table(
    [
      'quiet window s (no completion yet)',
      'polls',
      'worker-video CPU µs/poll',
      'Postgres CPU µs/poll',
      'db transactions/poll',
      'rows written/poll',
    ],
    [
      [
        decimal(quiet.seconds, 1),
        integer(quiet.polls),
        integer(quiet.workerUsPerPoll),
        integer(quiet.postgresUsPerPoll),
        decimal(perPoll.transactions),
        decimal((perPoll.rowsInserted ?? 0) + (perPoll.rowsUpdated ?? 0) + (perPoll.rowsDeleted ?? 0)),
      ],
    ],
  );
}

function tasksSection(entry, meta) {
  const flushSeconds = STATISTICS_FLUSH_MS / 1000;
  const parts = [
    `${integer(meta.taskCount)} tasks created through \`POST /v1/videos\` at ${entry.scenario.connections} connections ` +
      '(wrk, ended after that many answers); the simulator completes each ' +
      `${seconds(meta.taskCompletionMs)} after its upstream create, and worker-video` +
      ((meta.videoWorkers ?? 1) > 1 ? ` (${meta.videoWorkers} processes, their CPU summed)` : '') +
      ' (its default timing: the next poll ' +
      "after a tenth of the task's age, within 1–30 s) polls each until it ends. worker-video's queue is paused " +
      'while the creations run (the floor below has no consumer either, and on a machine of two cores the ' +
      'submissions would share the cores with the creations measured) and resumed at the last answer. ' +
      '**Polling** runs from then until no step job is left in the queue; the per-task figures run from before ' +
      'the first creation to the end (creation, submission, polls, settlement). The per-poll figures come from ' +
      `the **steady window**: polling from ${flushSeconds} s after the last upstream create (what the creations ` +
      'and submissions did has reached pg_stat_database by then) to the end; they include the settlement of ' +
      "the tasks that completed in it. Database: pg_stat_database of the stack's database (pg_stat_statements is " +
      'not loaded on this server): transactions, each statement outside an explicit transaction being one (a ' +
      `lower bound of the statements), and rows; every closing reading waits ${flushSeconds} s, since an idle ` +
      "backend reports its last second of statistics late. **Lag**: the gateway row's `completed_at` minus the " +
      "moment the upstream finished (the simulator's `readyAtMs`, `GET /__sim/videos/completions`), split into " +
      '**detection** (until the retrieve that first answered `completed`) and **recording** (from that answer to ' +
      "`completed_at`); the **poll interval** is the platform's delay at the task's age when it finished. " +
      '**insert-enqueue** (`bench/reference-task-server.mjs`) only creates, as many tasks at the same ' +
      "connections: per create the gateway's hold statement, the same task row and the step job on a queue no " +
      'worker reads; no key lookup, validation or admission. Its creation rate is the yardstick of the first ' +
      'check; nobody polls its tasks.',
    '',
    creationTable(entry),
    '',
  ];
  for (const target of entry.targets) {
    const { tasks, comparisons } = entry.byTarget[target];
    if (!tasks) continue;
    const { polling, steady, perTask, lags } = tasks;
    const perPoll = steady?.databasePerPoll ?? {};
    const rowsWritten =
      typeof perPoll.rowsInserted === 'number'
        ? perPoll.rowsInserted + perPoll.rowsUpdated + perPoll.rowsDeleted
        : null;
    const statuses = Object.entries(tasks.statuses.byStatus)
      .map(([status, count]) => `${status} ${integer(count)}`)
      .join(', ');
    parts.push(
      `**${target}**${tasks.failure ? ` ❌ ${tasks.failure.replaceAll('|', '\\|')}` : ''}`,
      '',
      table(
        [
          'tasks',
          'polling s',
          'polls',
          'polls/task',
          'worker-video CPU µs/task',
          'gateway CPU µs/task',
          'db transactions/task',
          'worker-video RSS MiB',
        ],
        [
          [
            statuses,
            decimal(polling.seconds, 1),
            integer(polling.polls),
            decimal(polling.pollsPerTask, 1),
            integer(perTask.workerUs),
            integer(perTask.gatewayUs),
            decimal(perTask.database?.transactions, 1),
            mib(polling.workerRssMiB),
          ],
        ],
      ),
      '',
      steady
        ? table(
            [
              'steady window s',
              'polls',
              'upstream creates',
              'worker-video CPU µs/poll',
              'Postgres CPU µs/poll',
              'db transactions/poll',
              'rows read/poll',
              'rows written/poll',
            ],
            [
              [
                decimal(steady.seconds, 1),
                integer(steady.polls),
                integer(steady.upstreamCreates),
                integer(steady.workerUsPerPoll),
                integer(steady.postgresUsPerPoll),
                decimal(perPoll.transactions),
                decimal(perPoll.rowsFetched),
                decimal(rowsWritten),
              ],
            ],
          )
        : `No steady window: every task ended within ${flushSeconds} s of the last creation answer.`,
      '',
      ...(tasks.quiet ? [quietWindowTable(tasks.quiet), ''] : []),
      table(
        [
          'lag p50',
          'lag p99',
          'lag max',
          'detection p50 / p99',
          'recording p50 / p99',
          'poll interval p50',
          'beyond the interval, p99',
          'within interval + 1 s',
        ],
        [
          [
            seconds(lags.lagP50Ms),
            seconds(lags.lagP99Ms),
            seconds(lags.lagMaxMs),
            `${seconds(lags.detectP50Ms)} / ${seconds(lags.detectP99Ms)}`,
            `${seconds(lags.recordP50Ms)} / ${seconds(lags.recordP99Ms)}`,
            seconds(lags.intervalP50Ms),
            seconds(lags.beyondIntervalP99Ms),
            typeof lags.withinGoalShare === 'number' ? `${(lags.withinGoalShare * 100).toFixed(1)} %` : '—',
          ],
        ],
      ),
      '',
      table(
        ['target (performance.md)', 'must', 'goal', 'measured'],
        TASK_CHECKS.map((check) => {
          const value = check.read(tasks, comparisons);
          const status = checkStatus(check, value);
          const bound = check.lowerIsBetter ? '≤' : '≥';
          return [
            check.metric,
            `${bound} ${formatCheckValue(check, check.must)}`,
            `${bound} ${formatCheckValue(check, check.goal)}`,
            status ? `${STATUS_MARKS[status]} ${formatCheckValue(check, value)}` : '—',
          ];
        }),
      ),
      '',
    );
  }
  return parts.join('\n').trimEnd();
}

/** The creation phase of every target of the task scenario, and each one's rate against the baseline. */
function creationTable(entry) {
  const rows = entry.targets.map((target) => {
    const { aggregate, tasks, comparisons } = entry.byTarget[target];
    const ratio = comparisons['insert-enqueue'];
    return [
      `**${target}**`,
      integer(aggregate.rps),
      ratio ? `${times(ratio.throughputRatio)}${ratio.noisy ? ' ⚠' : ''}` : '—',
      ms(aggregate.p50Us),
      ms(aggregate.p99Us),
      `${integer(aggregate.errors)} / ${integer(aggregate.requests)}`,
      integer(aggregate.cpuUsPerRequest),
      contextText(aggregate.contextUsPerRequest),
      integer(tasks?.creation.upstreamCreates),
    ];
  });
  return table(
    [
      'target',
      'creations/s',
      '× insert-enqueue',
      'create p50 ms',
      'p99 ms',
      'errors / answers',
      'CPU µs/create',
      'context CPU µs/create',
      'upstream creates meanwhile',
    ],
    rows,
  );
}

function checklistSection(figures) {
  const rows = checklistRows(figures).map(({ check, cells }) => {
    const limit = (value) =>
      check.unit === 'µs'
        ? formatCheckValue(check, value)
        : `${value}${check.unit === '×' ? '×' : ` ${check.unit}`}`;
    const cell = (key) => (cells[key] ? `${STATUS_MARKS[cells[key].status]} ${cells[key].text}` : '—');
    return [
      check.metric,
      `${check.lowerIsBetter ? '≤' : '≥'} ${limit(check.must)}`,
      `${check.lowerIsBetter ? '≤' : '≥'} ${limit(check.goal)}`,
      cell('gateway/native'),
      cell('gateway/openai'),
      cell('gateway-warn/native'),
      cell('gateway-warn/openai'),
      cells['proxy/native'] || cells['proxy/openai']
        ? `${cell('proxy/native')} / ${cell('proxy/openai')}`
        : '—',
    ];
  });
  return [
    table(
      [
        'target (performance.md)',
        'must',
        'goal',
        'native, LOG_LEVEL=info',
        'OpenAI-style, info',
        'native, warn',
        'OpenAI-style, warn',
        'reference proxy alone (native / OpenAI-style)',
      ],
      rows,
    ),
    '',
    'Measured on the gateway (LOG_LEVEL=info) alone, in scenarios of their own:',
    '',
    table(
      ['target (performance.md)', 'must', 'goal', 'gateway'],
      [BODY_MEMORY_CHECK, ...TASK_STREAM_CHECKS.map(readFromTaskStreams)].map((check) =>
        checkRow(check, figures),
      ),
    ),
  ].join('\n');
}

/** A task-streams check, read from the gateway target's run of that scenario. */
const readFromTaskStreams = (check) => ({
  ...check,
  read: (figures, target) =>
    check.read(figures[`task-streams/${TASK_EVENTS_FAMILY}`]?.byTarget[target]?.taskStreams),
});

/** One check of the gateway alone: its limits (a ratio as "× body") and the measured value with its status. */
function checkRow(check, figures) {
  const value = check.read(figures, 'gateway');
  const status = checkStatus(check, value);
  const bound = check.lowerIsBetter ? '≤' : '≥';
  const limit = (figure) => (check.unit === '×' ? `${figure}× body` : formatCheckValue(check, figure));
  return [
    check.metric,
    `${bound} ${limit(check.must)}`,
    `${bound} ${limit(check.goal)}`,
    status ? `${STATUS_MARKS[status]} ${formatCheckValue(check, value)}` : '—',
  ];
}

function bodyMemorySection(entry) {
  const parts = [
    'One `POST /alpha/ent/v2/reference2video` per round on a fresh connection: `alphaq2-pro`, one subject ' +
      'whose image is a 256×256 PNG header padded with zero bytes to fill the body (the gateway reads only ' +
      "the header), 5 s, 720p. Around it, the gateway's main process: VmRSS before, VmHWM (its peak, reset to " +
      'the current RSS through `/proc/<pid>/clear_refs` just before the request) once the whole answer is read, ' +
      `and VmRSS ${RETAINED_AFTER_MS / 1000} s after the answer (retained). Growth = peak − RSS before. Round 0 ` +
      'is the check request, a 64 KiB body of the same shape that loads what a first task request loads; ' +
      'round 1 is the first 20 MiB body the process took. The check-list takes the worst measured round ' +
      'that answered a task.',
    '',
  ];
  for (const target of entry.targets) {
    const memory = entry.byTarget[target].bodyMemory;
    // A round that failed or was refused shows why beside its ratio (which then counts for nothing).
    const failed = (problem) => (problem ? ` ❌ ${problem.slice(0, 80).replaceAll('|', '\\|')}` : '');
    const row = (label, figures, problem) => [
      label,
      integer(figures?.bodyBytes),
      formatMiB(figures?.rssBeforeBytes),
      formatMiB(figures?.growthBytes),
      `${times(figures?.ratio)}${failed(problem)}`,
      formatMiB(figures?.retainedBytes),
      integer(figures?.answerMs),
    ];
    const rows = [
      ...(memory.first ? [row('0 (check)', memory.first, null)] : []),
      ...memory.rounds.map(({ round, figures, problem }) => row(String(round), figures, problem)),
      row(`**median of ${memory.roundsUsed}**`, memory, null),
      [`**worst of ${memory.roundsUsed}**`, '', '', '', times(memory.worstRatio), '', ''],
    ];
    parts.push(
      `**${target}**`,
      '',
      table(
        [
          'round',
          'body bytes',
          'RSS before MiB',
          'peak growth MiB',
          '× body',
          `retained after ${RETAINED_AFTER_MS / 1000} s MiB`,
          'answer ms',
        ],
        rows,
      ),
      '',
    );
  }
  return parts.join('\n').trimEnd();
}

function taskStreamsSection(entry) {
  return entry.targets
    .map((target) => {
      const figures = entry.byTarget[target].taskStreams;
      const text = figures ? renderTaskStreams(figures) : 'No figures: the run failed (raw.json says why).';
      return `**${target}**\n\n${text}`;
    })
    .join('\n\n');
}

function noiseSection(results) {
  const measuredRuns = results.runs.filter((run) => run.round >= 1 && run.cpu);
  const noisy = measuredRuns.filter((run) => run.noisy);
  const worst = Math.max(0, ...measuredRuns.map((run) => run.cpu.otherCores));
  const lines = [
    `${noisy.length} of ${measuredRuns.length} measured runs had other processes using more than a third of a core ` +
      `(worst: ${worst.toFixed(2)} cores). Medians and comparisons use the clean rounds; ⚠ marks a figure ` +
      'for which no clean round existed.',
  ];
  if (noisy.length > 0) {
    lines.push(
      '',
      table(
        ['scenario', 'route', 'target', 'round', 'other cores'],
        noisy.map((run) => [run.scenario, run.family, run.target, run.round, run.cpu.otherCores.toFixed(2)]),
      ),
    );
  }
  return lines.join('\n');
}

export function renderSummary(results, figures) {
  const { meta } = results;
  const lines = [
    `# Benchmark results (${meta.mode} mode, ${meta.startedAt})`,
    '',
    `Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, ${meta.machine.memoryGiB} GiB, Linux ${meta.machine.kernel}. ` +
      `Node ${meta.node}, ${meta.wrk}. Commit ${meta.commit}. Clock ticks/s: ${meta.clockTicks}.`,
    '',
    `Method: ${meta.rounds} interleaved round(s) of ${meta.durationSeconds} s per wrk run after a ${meta.warmupSeconds} s warm-up ` +
      '(round order A B C D, then D C B A, …), everything on loopback. Latency percentiles from wrk `--latency` ' +
      `(exact µs via its Lua done() hook); time to first byte from a Node client (1 connection, ${meta.ttfbCount} ` +
      `sequential requests per round, after a ${meta.warmupSeconds} s warm-up of the same stream unpaced); ${meta.openStreams} concurrent open streams held about ${meta.openStreamSeconds} s. ` +
      "Figures are medians across rounds; comparisons are per-round ratios and deltas against the same round's " +
      "reference run, then their median. CPU µs/req is the utime+stime of the target's own process divided by the " +
      'requests it served; "context" is the CPU of what it needs (simulator, workers, Postgres backends of the ' +
      'bench database, Redis), per request. RSS is VmRSS at the end of the run.' +
      (meta.keyLimits
        ? " The stack's key carries every governance limit (`--key-limits`), far above the load, so that the limit checks run."
        : ''),
    '',
    '**Log level.** `gateway` runs with `LOG_LEVEL=info`, as in production (one JSON log line per request); ' +
      '`gateway-warn` is the same build and database with `LOG_LEVEL=warn`, measured in scenarios 1 and 2 to show ' +
      'what the per-request log line costs.',
    '',
    'Targets:',
    '',
    ...Object.entries(TARGET_DESCRIPTIONS)
      .filter(([name]) => meta.targets.includes(name))
      .map(([name, description]) => `- **${name}**: ${description}`),
    '',
  ];
  if (meta.startFailures.length > 0) {
    lines.push(
      '**Targets that failed to start:** ' +
        meta.startFailures.map((failure) => `${failure.target}: ${failure.error}`).join('; '),
      '',
    );
  }
  if (results.skipped.length > 0) {
    lines.push(
      '**Not measured (the check request failed):**',
      '',
      ...results.skipped.map(
        (skip) => `- ${skip.scenario} / ${skip.family} / ${skip.target}: ${skip.problem.slice(0, 200)}`,
      ),
      '',
    );
  }
  lines.push(
    '## Check-list (performance.md targets, gateway against direct in the same run)',
    '',
    'The last column scores the thin reference proxy on the same targets in the same run: absolute',
    'targets (µs, ms, MiB) move with the machine, and what a hundred-line proxy alone reaches shows how',
    "much of a figure is the machine's.",
    '',
    checklistSection(figures),
    '',
  );
  if (meta.baselineCommit) lines.push(renderBaselineSection(results));
  const tracingSection = renderTracingSection(results);
  if (tracingSection) lines.push(tracingSection);
  for (const scenario of SCENARIOS) {
    const entries = Object.values(figures).filter((entry) => entry.scenario.name === scenario.name);
    if (entries.length === 0) continue;
    lines.push(`## ${scenario.title}`, '');
    for (const entry of entries) {
      lines.push(`### ${FAMILY_LABELS[entry.family]}`, '');
      if (scenario.kind === 'wrk') lines.push(wrkSection(entry));
      else if (scenario.kind === 'ttfb') lines.push(ttfbSection(entry));
      else if (scenario.kind === 'tasks') lines.push(tasksSection(entry, meta));
      else if (scenario.kind === 'body-memory') lines.push(bodyMemorySection(entry));
      else if (scenario.kind === 'task-streams') lines.push(taskStreamsSection(entry));
      else lines.push(openStreamsSection(entry));
      lines.push('');
    }
  }
  lines.push('## Noise', '', noiseSection(results), '');
  return lines.join('\n');
}

export function renderBenchmarksDoc(summary, results) {
  const { meta } = results;
  return `# Benchmarks

What the gateway adds on top of calling the upstream directly, measured side by side in one run on one
machine against the simulator ("direct") and a thin Fastify + undici reference proxy. Targets and
method: see the check-list below; the raw runs of this report are in
\`bench/results/${meta.resultsDirName}/raw.json\` (not committed).

Where the gateway's time goes, what limits each missed target and what was changed because of it (with
the measurements): [performance-analysis.md](performance-analysis.md), written by hand beside this
generated report.

## How to reproduce

\`\`\`sh
apt-get install -y wrk          # the load generator (Debian package)
npm run bench                   # full: ${meta.rounds} rounds × ${meta.durationSeconds} s per scenario and target (this run took ${meta.elapsedMinutes} min)
npm run bench -- --smoke        # 1 round × 1 s, 100 streams: checks that the harness works (CI)
npm run bench -- --scenario throughput --targets direct,gateway   # filters, to iterate
npm run bench -- --profile --scenario throughput --targets gateway  # CPU profile of the gateway, grouped by package
npm run bench -- --scenario images --rounds 1 --seconds 5           # only the image scenario, quickly
npm run bench -- --scenario tasks --targets insert-enqueue,gateway  # only the video task scenario
npm run bench -- --scenario task-streams --targets gateway          # only the task progress streams
npm run chaos                   # not a benchmark: faults under load, then the ledger audit (bench/README.md)
\`\`\`

Postgres and Redis must answer on 127.0.0.1 (the harness starts the local ones otherwise). The harness
builds \`dist/\`, drops and migrates its own database \`gateway_bench\`, uses the Redis prefix \`bench\`
(a running demo is never touched), starts every process itself and stops them all at the end (also on
failure or Ctrl-C). Results land in \`bench/results/<timestamp>/\`: \`raw.json\` (every run, with
wrk's report), \`summary.md\` and \`latency-throughput.svg\`; a full run also rewrites this file.

Machine notes: these figures come from a shared 2-core VM; absolute numbers drift from run to run, the
ratios against direct in the same round much less. The load generator, the simulator and the target share
the two cores, so a proxy's throughput ratio includes its fight for CPU with the simulator. Rounds in which
other processes used more than a third of a core are marked and left out of the medians.

![64-connection throughput and 1-connection p50](benchmarks-latency-throughput.svg)

${summary.replace(/^(#+) /gm, '#$1 ').replace(/^## Benchmark results/, '## Latest run')}`;
}
