// npm run bench: the gateway beside direct and the reference proxy, in interleaved rounds; writes
// bench/results/<timestamp>/ (raw.json, summary.md, latency-throughput.svg) and, for an unfiltered full
// run, docs/benchmarks.md. See bench/README.md.
//   --smoke                 1 round × 1 s, 100 open streams, 200 video tasks of 15 s, 200 task progress
//                           streams (CI: "the harness never rots")
//   --scenario a,b          latency, throughput, stream, ttfb, large-prompt, open-streams, images, tasks,
//                           body-memory, admin-figures, task-streams
//   --targets a,b           direct, proxy, gateway, gateway-warn, gateway-traced, insert-enqueue (needs
//                           gateway); gateway-traced (tracing on, spans to a local OTLP sink) only when
//                           named
//   --profile               the gateway runs under --cpu-prof; its self time is grouped by package
//   --no-build              use the existing dist/
//   --rounds n, --seconds s override the mode's rounds and seconds per run (quicker comparisons)
//   --video-workers n       worker-video processes polling the task scenario's tasks (default 1)
//   --task-count n          tasks of the task scenario (overrides the mode's 10,000 or 200)
//   --task-completion-ms n  how long after its create the simulator completes a task (30,000 or 15,000):
//                           a long one gives the tasks run a quiet window of polls before any completes
//   --key-limits            every governance limit on the stack's key (far above the load), so that the
//                           limit checks run; a --baseline from before governance runs without
//   --busy-cores            a lowest-priority busy loop on each core for the whole run: a process a request
//                           wakes is then always queued on its waker's core (bench/lib/busy-cores.mjs)
//   --baseline <commit>     also runs that commit's build (its own worktree, database and Redis prefix)
//                           on the same simulator, interleaved with this one, and reports the ratios
import { execFileSync, execSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  alphaReferenceBody,
  BODY_MEMORY_BYTES,
  BODY_MEMORY_CHECK_BYTES,
  describeBodyMemory,
  runBodyMemoryRound,
} from './lib/body-memory.mjs';
import { adminFiguresWithinLimit, measureAdminFigures, renderAdminFigures } from './lib/admin-figures.mjs';
import { CLOCK_TICKS_PER_SECOND } from './lib/proc-stats.mjs';
import { preflight, runOpenStreams, runTimeToFirstByte, runWrkScenario } from './lib/runner.mjs';
import { runTaskCreations, runTaskLoad } from './lib/task-run.mjs';
import { measureTaskStreams } from './lib/task-streams.mjs';
import { describeTaskStreams, taskStreamsProblem } from './lib/task-stream-figures.mjs';
import { takeRunLock } from './lib/run-lock.mjs';
import {
  openStreamPrompt,
  requestBody,
  requestHeaders,
  SCENARIOS,
  scenarioPlan,
  streamEndMarker,
} from './lib/scenarios.mjs';
import { orderForRound } from './lib/stats.mjs';
import { BASELINE_DATABASE, BASELINE_REDIS_PREFIX, prepareBaselineBuild } from './lib/baseline-build.mjs';
import { deriveFigures, renderBenchmarksDoc, renderSummary } from './lib/summary.mjs';
import { renderBaselineSection } from './lib/baseline-comparison.mjs';
import { plotDataFromFigures, renderLatencyThroughputSvg } from './lib/svg-plot.mjs';
import { createStack, TARGET_NAMES } from './lib/targets.mjs';
import { readOtlpSinkStats } from './lib/tracing-cost.mjs';
import { wrkVersion } from './lib/wrk.mjs';
import { BUSY_LOOPS_GROUP, startBusyCores } from './lib/busy-cores.mjs';
import { groupProfiles, renderRanking } from './lib/profile-by-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    scenario: { type: 'string' },
    targets: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    baseline: { type: 'string' },
    'video-workers': { type: 'string' },
    'task-count': { type: 'string' },
    'task-completion-ms': { type: 'string' },
    'key-limits': { type: 'boolean', default: false },
    callgrind: { type: 'boolean', default: false },
    'busy-cores': { type: 'boolean', default: false },
  },
});

const SETTINGS = {
  full: {
    rounds: 3,
    durationSeconds: 10,
    warmupSeconds: 2,
    ttfbCount: 120,
    ttfbWarmup: 10,
    openStreams: 1000,
    openStreamSeconds: 10,
    settleMs: 300,
    // performance.md: 10,000 outstanding tasks, each completed upstream 30 s after its create.
    taskCount: 10_000,
    taskCompletionMs: 30_000,
    // performance.md: the admin figures over 1,000,000 request-log rows.
    adminFigureRows: 1_000_000,
    adminFigureRuns: 5,
    // performance.md: 1,000 open task event streams on one gateway.
    taskStreams: 1000,
    taskStreamTasks: 100,
    taskStreamPhaseSeconds: 10,
    taskStreamUpdatesPerSecond: 100,
  },
  smoke: {
    rounds: 1,
    // A smoke run checks that every part of the harness works, not a figure: one second of wrk is enough.
    durationSeconds: 1,
    warmupSeconds: 0,
    ttfbCount: 30,
    ttfbWarmup: 3,
    openStreams: 100,
    openStreamSeconds: 2,
    settleMs: 200,
    // Long enough for a steady window (it starts 11 s after the last creation answer) of a few polls.
    taskCount: 200,
    taskCompletionMs: 15_000,
    adminFigureRows: 50_000,
    adminFigureRuns: 1,
    // Past the gateway's default cap of 100 streams per account, which the stack raises to this.
    taskStreams: 200,
    taskStreamTasks: 20,
    taskStreamPhaseSeconds: 3,
    taskStreamUpdatesPerSecond: 20,
  },
};
const mode = options.smoke ? 'smoke' : 'full';
const settings = {
  ...SETTINGS[mode],
  ...(options.rounds ? { rounds: positiveWhole('--rounds', options.rounds) } : {}),
  ...(options.seconds ? { durationSeconds: positiveWhole('--seconds', options.seconds) } : {}),
  ...(options['task-count'] ? { taskCount: positiveWhole('--task-count', options['task-count']) } : {}),
  ...(options['task-completion-ms']
    ? { taskCompletionMs: positiveWhole('--task-completion-ms', options['task-completion-ms']) }
    : {}),
  videoWorkers: options['video-workers'] ? positiveWhole('--video-workers', options['video-workers']) : 1,
  // Under callgrind the gateway runs 30–80 times slower: its JIT needs minutes of warm-up to reach the
  // code it runs at full speed after 2 s (V8 tiers up by calls, not by time).
  ...(options.callgrind
    ? {
        warmupSeconds: 240,
        durationSeconds: options.seconds ? positiveWhole('--seconds', options.seconds) : 60,
      }
    : {}),
};
function positiveWhole(name, value) {
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 1) throw new Error(`${name} must be a whole number ≥ 1`);
  return number;
}
const list = (value) =>
  value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const scenarios = SCENARIOS.filter(
  (scenario) => !options.scenario || list(options.scenario).includes(scenario.name),
);
// gateway-warn only shows what the info log line costs; smoke runs skip it unless asked for.
// gateway-traced shows what tracing costs: only when named (--targets gateway,gateway-traced).
const wantedTargets = [
  ...(list(options.targets) ??
    TARGET_NAMES.filter(
      (name) =>
        name !== 'baseline' && name !== 'gateway-traced' && (mode === 'full' || name !== 'gateway-warn'),
    )),
  ...(options.baseline ? ['baseline'] : []),
];
if (wantedTargets.includes('baseline') && !options.baseline)
  throw new Error('the baseline target needs --baseline');
// Only the standard full run rewrites docs/benchmarks.md.
const filtered = Boolean(
  options.scenario ||
  options.targets ||
  options.rounds ||
  options.seconds ||
  options.baseline ||
  options.callgrind ||
  options['busy-cores'] ||
  options['video-workers'] ||
  options['task-count'] ||
  options['task-completion-ms'],
);
for (const name of wantedTargets) if (!TARGET_NAMES.includes(name)) throw new Error(`unknown target ${name}`);
// The two together collapse: a run of both served 10–220 req/s at one connection, 2,500 without the
// loops (V8's profiler samples from a thread of its own; why the loops stall it was not analysed).
if (options['busy-cores'] && options.profile)
  throw new Error('--busy-cores cannot be combined with --profile');
if (scenarios.length === 0) throw new Error(`no scenario matches ${options.scenario}`);

const startedAt = new Date();
const resultsDirName = startedAt.toISOString().replace(/[:.]/g, '-');
const resultsDir = join(root, 'bench', 'results', resultsDirName);
const profileDir = options.profile ? join(resultsDir, 'profile') : null;
const callgrindDir = options.callgrind ? join(resultsDir, 'callgrind') : null;
const log = (message) =>
  console.log(`[bench ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${message}`);

// One run at a time: a second one would drop gateway_bench and rebuild dist/ under the first.
takeRunLock(root);

mkdirSync(join(resultsDir, 'bodies'), { recursive: true });
if (callgrindDir) mkdirSync(callgrindDir);

const wrk = wrkVersion();
if (!wrk) {
  console.error('wrk is not installed. Install it with:\n  apt-get install -y wrk');
  process.exit(1);
}
if (!options['no-build']) {
  log('building dist/');
  execFileSync(process.execPath, [join(root, 'tools', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}
const baselineBuild = options.baseline
  ? await prepareBaselineBuild({ root, revision: options.baseline, log })
  : null;

const stack = createStack({
  root,
  logDir: resultsDir,
  log,
  profileDir,
  videoWorkers: settings.videoWorkers,
  taskStreams: settings.taskStreams,
  keyLimits: options['key-limits'],
  callgrindDir,
});
const results = {
  meta: {
    mode,
    startedAt: startedAt.toISOString(),
    resultsDirName,
    ...settings,
    keyLimits: options['key-limits'],
    callgrind: options.callgrind,
    busyCores: options['busy-cores'],
    filtered,
    targets: wantedTargets,
    scenarios: scenarios.map((scenario) => scenario.name),
    machine: {
      cpu: readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] ?? 'unknown CPU',
      cores: cpus().length,
      memoryGiB: (totalmem() / 1024 ** 3).toFixed(1),
      kernel: release(),
    },
    node: process.version,
    wrk,
    commit: gitCommit(),
    baselineCommit: baselineBuild?.commit ?? null,
    clockTicks: CLOCK_TICKS_PER_SECOND,
    startFailures: [],
  },
  runs: [],
  skipped: [],
};

function gitCommit() {
  try {
    const commit = execSync('git rev-parse --short HEAD', { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain', { cwd: root, encoding: 'utf8' }).trim()
      ? ' (with uncommitted changes)'
      : '';
    return `${commit}${dirty}`;
  } catch {
    return 'unknown';
  }
}

const saveRaw = () => writeFileSync(join(resultsDir, 'raw.json'), `${JSON.stringify(results, null, 2)}\n`);

let interrupted = false;
/** --busy-cores: the loops, started once the targets are up (so that their start-up is not slowed). */
let busyCores = null;
const stopBusyCores = () => busyCores?.stop();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: stopping every process the harness started`);
    Promise.all([stack.stopEverything(), stopBusyCores()]).then(() => process.exit(130));
  });
}

async function startTargets() {
  const targets = {};
  const attempt = async (names, start) => {
    try {
      return await start();
    } catch (error) {
      for (const name of names) results.meta.startFailures.push({ target: name, error: error.message });
      log(`!! could not start ${names.join(', ')}: ${error.message}`);
      return null;
    }
  };
  log('starting the simulator');
  const simulator = await stack.startSimulator();
  if (wantedTargets.includes('direct')) targets.direct = stack.directTarget(simulator);
  if (wantedTargets.includes('proxy')) {
    const proxy = await attempt(['proxy'], () => stack.startProxy(simulator));
    if (proxy) targets.proxy = proxy;
  }
  const gatewayNames = wantedTargets.filter((name) =>
    ['gateway', 'gateway-warn', 'gateway-traced'].includes(name),
  );
  if (gatewayNames.length > 0) {
    log(`starting Postgres/Redis checks, ${gatewayNames.join(' and ')} and the four workers`);
    const gateways = await attempt(gatewayNames, () => stack.startGateways(simulator, gatewayNames));
    for (const gateway of gateways ?? []) targets[gateway.name] = gateway;
  }
  if (baselineBuild) {
    log(`starting the baseline ${baselineBuild.commit}, its workers and admin instance`);
    const [baseline] =
      (await attempt(['baseline'], () =>
        stack.startGateways(simulator, ['baseline'], {
          appRoot: baselineBuild.folder,
          database: BASELINE_DATABASE,
          redisPrefix: BASELINE_REDIS_PREFIX,
          seed: baselineBuild.seedDemo,
        }),
      )) ?? [];
    if (baseline) targets.baseline = baseline;
  }
  if (wantedTargets.includes('insert-enqueue')) {
    log('starting the plain task insert-and-enqueue');
    const baseline = await attempt(['insert-enqueue'], () => stack.startTaskBaseline());
    if (baseline) targets['insert-enqueue'] = baseline;
  }
  return targets;
}

/** The quiet window's per-poll figures for the progress line, when the run had one. */
const quietFigures = (quiet) =>
  quiet
    ? `; quiet window (${quiet.polls} polls, no completion): worker ${Math.round(quiet.workerUsPerPoll)} µs/poll, ` +
      `Postgres ${Math.round(quiet.postgresUsPerPoll)} µs/poll, ${quiet.databasePerPoll.transactions.toFixed(2)} db transactions/poll`
    : '';
const formatMs = (value) => (typeof value === 'number' ? `${(value / 1000).toFixed(2)} s` : '—');

function describeRun(record) {
  if (record.bodyMemory) return describeBodyMemory(record);
  if (record.taskStreams) return describeTaskStreams(record);
  const latency = record.latencyUs
    ? `p50 ${(record.latencyUs.p50 / 1000).toFixed(3)} p99 ${(record.latencyUs.p99 / 1000).toFixed(3)} ms`
    : '';
  const rate = typeof record.rps === 'number' ? `${Math.round(record.rps)} req/s ` : '';
  const tasks = record.tasks
    ? `${record.tasks.statuses.byStatus.completed ?? 0}/${record.tasks.statuses.total} completed, lag p50 ${formatMs(record.tasks.lags.lagP50Ms)} p99 ${formatMs(record.tasks.lags.lagP99Ms)}, steady window: worker ${Math.round(record.tasks.steady?.workerUsPerPoll ?? NaN)} µs/poll, ${(record.tasks.steady?.databasePerPoll?.transactions ?? NaN).toFixed(2)} db transactions/poll${quietFigures(record.tasks.quiet)}; creations `
    : '';
  const open = record.openStreams
    ? `${record.openStreams.completed}/${record.openStreams.streams} done, peak open ${record.openStreams.peakOpen}, peak RSS ${record.memory.peakMainMiB.toFixed(1)} MiB `
    : '';
  const cpu =
    typeof record.cpu?.targetUsPerRequest === 'number'
      ? `cpu ${Math.round(record.cpu.targetUsPerRequest)} µs/req${kernelPart(record.cpu)} `
      : '';
  const instructions =
    typeof record.instructions?.perRequest === 'number'
      ? `${Math.round(record.instructions.perRequest).toLocaleString('en-US')} instructions/req `
      : '';
  return `${tasks}${rate}${open}${latency} errors ${record.errors?.total ?? '?'} ${cpu}${instructions}rss ${record.rssMiB?.main?.toFixed(1)} MiB others ${record.cpu?.otherCores?.toFixed(2)}${record.noisy ? ' (noisy)' : ''}${drainPart(record.drain)}`;
}

/** How long the target stayed busy after its load, when it did (bench/lib/quiet-wait.mjs). */
function drainPart(drain) {
  if (!drain || (drain.quiet && drain.busyMs === 0)) return '';
  return `, busy ${(drain.busyMs / 1000).toFixed(2)} s after its load${drain.quiet ? '' : ' (still busy)'}`;
}

/** ` (kernel N)`: the part of a run's CPU per request spent in the kernel, when it was measured. */
function kernelPart(cpu) {
  return typeof cpu.targetSystemUsPerRequest === 'number'
    ? ` (kernel ${Math.round(cpu.targetSystemUsPerRequest)})`
    : '';
}

/** Runs one measurement and keeps it (or why it failed) in raw.json's runs; logs either. */
async function recordRun(base, measure) {
  if (interrupted) throw new Error('interrupted');
  stack.assertAlive();
  const label = `${base.scenario} ${base.family} ${base.target} ${base.round === 0 ? 'warm-up' : `r${base.round}`}`;
  try {
    const run = { ...base, ...(await measure()) };
    results.runs.push(run);
    log(`${label}: ${describeRun(run)}`);
  } catch (error) {
    results.runs.push({ ...base, requests: 0, failure: error.message, errors: { total: 0 } });
    log(`!! ${label} failed: ${error.message}`);
  }
}

/**
 * One 20 MiB alpha body per round on the gateway's main process. The check request is a small body of
 * the same shape, kept as round 0: it loads what any task route loads on its first call (the task
 * runtime), so that the rounds measure what the body costs, the first of them in a process that has
 * never held one.
 */
async function runBodyMemory(scenario, targets) {
  const body = alphaReferenceBody(BODY_MEMORY_BYTES);
  const checkBody = alphaReferenceBody(BODY_MEMORY_CHECK_BYTES);
  for (const { family, targets: names } of scenarioPlan(scenario, targets)) {
    for (const name of names) {
      const target = targets[name];
      const headers = requestHeaders(scenario, target, family);
      const measure = (sent) => () => runBodyMemoryRound({ target, family, headers, body: sent });
      const base = { scenario: scenario.name, kind: scenario.kind, family, target: name, connections: 1 };
      stack.assertAlive();
      let problem;
      try {
        const check = await measure(checkBody)();
        problem = check.errors.firstFailure;
        if (!problem) {
          results.runs.push({ ...base, round: 0, ...check });
          log(`${scenario.name} ${family} ${name} check (round 0): ${describeBodyMemory(check)}`);
        }
      } catch (error) {
        problem = `request failed: ${error.message}`;
      }
      if (problem) {
        results.skipped.push({ scenario: scenario.name, family, target: name, problem });
        log(
          `!! ${scenario.name} ${family} ${name}: check request failed (${problem.slice(0, 200)}); not measured`,
        );
        continue;
      }
      for (let round = 1; round <= settings.rounds; round += 1)
        await recordRun({ ...base, round }, measure(body));
    }
  }
  saveRaw();
}

/**
 * The admin figures (bench/lib/admin-figures.mjs): a database and a gateway of their own, from the
 * dist/ just built, beside the stack. Kept as admin-figures.md and in raw.json; a full run fails when a
 * JSON route's median is not under 1 s.
 */
async function runAdminFigures() {
  const figures = await measureAdminFigures({
    dist: 'dist',
    rows: settings.adminFigureRows,
    runs: settings.adminFigureRuns,
    log,
  });
  const table = renderAdminFigures(figures);
  results.adminFigures = figures;
  writeFileSync(join(resultsDir, 'admin-figures.md'), `# Admin figures\n\n${table}\n`);
  console.log(`\n${table}\n`);
  if (mode === 'full' && !adminFiguresWithinLimit(figures.queries)) {
    results.skipped.push({
      scenario: 'admin-figures',
      family: 'admin',
      target: 'gateway',
      problem: 'a JSON route took 1 s or more',
    });
  }
  saveRaw();
}

/**
 * The task progress streams (bench/lib/task-streams.mjs): one run per gateway target, on the stack's
 * database and account; its three phases are one measurement, as the open streams' are.
 */
async function runTaskStreams(scenario, targets) {
  for (const { family, targets: names } of scenarioPlan(scenario, targets)) {
    for (const name of names) {
      const target = targets[name];
      const base = { scenario: scenario.name, kind: scenario.kind, family, target: name, round: 1 };
      await recordRun({ ...base, connections: settings.taskStreams }, () =>
        measureTaskStreams({
          target,
          headers: requestHeaders(scenario, target, family),
          streams: settings.taskStreams,
          tasks: settings.taskStreamTasks,
          phaseSeconds: settings.taskStreamPhaseSeconds,
          updatesPerSecond: settings.taskStreamUpdatesPerSecond,
          log,
        }),
      );
    }
  }
  saveRaw();
}

async function runScenario(scenario, targets) {
  if (scenario.kind === 'body-memory') return runBodyMemory(scenario, targets);
  if (scenario.kind === 'admin-figures') return runAdminFigures();
  if (scenario.kind === 'task-streams') return runTaskStreams(scenario, targets);
  const pairs = [];
  for (const { family, targets: names } of scenarioPlan(scenario, targets)) {
    const request =
      scenario.kind === 'open-streams'
        ? { prompt: openStreamPrompt(settings.openStreamSeconds), stream: true }
        : scenario.kind === 'tasks'
          ? { ...scenario.request, completionMs: settings.taskCompletionMs }
          : scenario.request;
    const body = requestBody(family, request);
    const bodyFile = join(resultsDir, 'bodies', `${scenario.name}-${family}.json`);
    writeFileSync(bodyFile, body);
    const warmUpBodyFile = scenario.warmUpRequest
      ? join(resultsDir, 'bodies', `${scenario.name}-${family}-warm-up.json`)
      : null;
    if (warmUpBodyFile) writeFileSync(warmUpBodyFile, requestBody(family, scenario.warmUpRequest));
    // The open-streams check uses a short stream: the paced one would hold the check for seconds; the
    // task check a task completed at its first poll.
    const checkBody =
      scenario.kind === 'open-streams'
        ? requestBody(family, { prompt: 'Say hello', stream: true })
        : scenario.kind === 'tasks'
          ? requestBody(family, scenario.request)
          : body;
    for (const name of names) {
      const problem = await preflight(targets[name], family, { body: checkBody, stream: request.stream });
      if (problem) {
        results.skipped.push({ scenario: scenario.name, family, target: name, problem });
        log(
          `!! ${scenario.name} ${family} ${name}: check request failed (${problem.slice(0, 200)}); not measured`,
        );
        continue;
      }
      pairs.push({
        family,
        name,
        target: targets[name],
        body,
        bodyFile,
        warmUpBodyFile,
        stream: request.stream,
      });
    }
  }
  const runOnce = (pair, round) => {
    const common = { target: pair.target, family: pair.family, settleMs: settings.settleMs };
    if (scenario.kind === 'tasks') {
      // A target without a task stack (the plain insert-and-enqueue) only creates: nobody polls its tasks.
      if (!pair.target.tasks) {
        return runTaskCreations({
          target: pair.target,
          family: pair.family,
          connections: scenario.connections,
          bodyFile: pair.bodyFile,
          count: settings.taskCount,
        });
      }
      return runTaskLoad({
        target: pair.target,
        family: pair.family,
        connections: scenario.connections,
        bodyFile: pair.bodyFile,
        count: settings.taskCount,
        completionMs: settings.taskCompletionMs,
        log,
      });
    }
    if (scenario.kind === 'wrk' || round === 0) {
      const durationSeconds = round === 0 ? settings.warmupSeconds : settings.durationSeconds;
      return runWrkScenario({
        ...common,
        connections: scenario.connections,
        durationSeconds,
        bodyFile: round === 0 ? (pair.warmUpBodyFile ?? pair.bodyFile) : pair.bodyFile,
        stream: pair.stream,
      });
    }
    if (scenario.kind === 'ttfb') {
      return runTimeToFirstByte({
        ...common,
        body: pair.body,
        count: settings.ttfbCount,
        warmup: settings.ttfbWarmup,
      });
    }
    return runOpenStreams({
      ...common,
      body: pair.body,
      streams: settings.openStreams,
      endMarker: streamEndMarker(pair.family),
      deadlineMs: (settings.openStreamSeconds * 4 + 30) * 1000,
    });
  };
  const record = (pair, round) =>
    recordRun(
      {
        scenario: scenario.name,
        kind: scenario.kind,
        family: pair.family,
        target: pair.name,
        round,
        connections: scenario.connections,
      },
      () => runOnce(pair, round),
    );
  if ((scenario.kind === 'wrk' || scenario.warmUpRequest) && settings.warmupSeconds > 0) {
    for (const pair of pairs) await record(pair, 0);
  }
  // One run: the open streams and the outstanding tasks are each one long measurement.
  const rounds = scenario.kind === 'open-streams' || scenario.kind === 'tasks' ? 1 : settings.rounds;
  for (let round = 1; round <= rounds; round += 1) {
    for (const pair of orderForRound(pairs, round)) await record(pair, round);
  }
  saveRaw();
}

/**
 * Pairs whose every measured request failed, targets that did not start, and progress streams that did
 * not open, ended early or missed events: the smoke test's verdict.
 */
function hardFailures() {
  const failures = results.meta.startFailures.map((failure) => `${failure.target} did not start`);
  if (results.meta.otlpSink && !(results.meta.otlpSink.spans > 0))
    failures.push('gateway-traced: its OTLP sink received no span');
  for (const skip of results.skipped)
    failures.push(`${skip.scenario}/${skip.family}/${skip.target}: check request failed`);
  for (const run of results.runs.filter((candidate) => candidate.round >= 1)) {
    if (run.failure || !(run.requests > 0) || run.errors.total >= run.requests) {
      failures.push(
        `${run.scenario}/${run.family}/${run.target} r${run.round}: ${run.failure ?? '100% errors'}`,
      );
    }
    const streamsProblem = taskStreamsProblem(run.taskStreams);
    if (streamsProblem) failures.push(`${run.scenario}/${run.family}/${run.target}: ${streamsProblem}`);
  }
  return failures;
}

function writeReports() {
  results.meta.finishedAt = new Date().toISOString();
  results.meta.elapsedMinutes = ((Date.now() - startedAt) / 60_000).toFixed(1);
  saveRaw();
  const figures = deriveFigures(results);
  const summary = renderSummary(results, figures);
  writeFileSync(join(resultsDir, 'summary.md'), summary);
  const svg = renderLatencyThroughputSvg({
    ...plotDataFromFigures(figures, TARGET_NAMES),
    caption: `${mode} run ${results.meta.startedAt}, medians of ${settings.rounds} round(s)`,
  });
  writeFileSync(join(resultsDir, 'latency-throughput.svg'), svg);
  if (mode === 'full' && !filtered && !options.profile) {
    mkdirSync(join(root, 'docs'), { recursive: true });
    copyFileSync(
      join(resultsDir, 'latency-throughput.svg'),
      join(root, 'docs', 'benchmarks-latency-throughput.svg'),
    );
    writeFileSync(join(root, 'docs', 'benchmarks.md'), renderBenchmarksDoc(summary, results));
    log('wrote docs/benchmarks.md');
  }
  log(`results in ${resultsDir}`);
  const checklist = summary.slice(
    summary.indexOf('## Check-list'),
    summary.indexOf('\n## ', summary.indexOf('## Check-list') + 5),
  );
  console.log(`\n${checklist}`);
  if (baselineBuild) console.log(renderBaselineSection(results));
}

let exitCode = 0;
try {
  const targets = await startTargets();
  if (Object.keys(targets).length === 0) throw new Error('no target started');
  if (options['busy-cores']) {
    busyCores = startBusyCores();
    log(`a busy loop at nice 19 on each of ${busyCores.pids.length} cores`);
    for (const target of Object.values(targets)) target.groups[BUSY_LOOPS_GROUP] = busyCores.pids;
  }
  for (const scenario of scenarios) {
    if (interrupted) break;
    log(`scenario ${scenario.name}`);
    await runScenario(scenario, targets);
  }
  // What the traced replica exported: none would make its figures a plain gateway's (hardFailures).
  if (targets['gateway-traced']) results.meta.otlpSink = await readOtlpSinkStats(targets['gateway-traced']);
  writeReports();
  const failures = hardFailures();
  if (failures.length > 0) {
    log(`failures:\n  ${failures.join('\n  ')}`);
    exitCode = 1;
  }
} catch (error) {
  log(`!! ${error.stack ?? error.message}`);
  saveRaw();
  exitCode = 1;
} finally {
  await Promise.all([stack.stopEverything(), stopBusyCores()]);
}
if (profileDir && existsSync(profileDir)) {
  const windows = results.runs
    .filter((run) => run.target === 'gateway' && run.round >= 1 && run.windowUs)
    .map((run) => run.windowUs);
  const { files, windowed, ranking, functions } = groupProfiles(profileDir, { windows });
  const scope = windowed
    ? `only samples taken during the ${windows.length} measured gateway run(s) (start-up and idle gaps left out)`
    : 'the whole process lifetime';
  const text = [
    '# Gateway CPU profile, self time by package',
    '',
    `${files.length} profile(s) in ${profileDir}; ${scope}.`,
    '',
    renderRanking(ranking, 15),
    '',
    '## Top functions',
    '',
    renderRanking(functions, 25),
    '',
  ].join('\n');
  writeFileSync(join(resultsDir, 'profile.md'), text);
  console.log(`\n${text}`);
}
process.exit(exitCode);
