// npm run chaos: load through the production build while faults are injected on a schedule, then the
// ledger audit. Faults: Postgres backends of the stack database terminated; the gateway SIGKILLed and
// restarted; the stack processes' Redis connections cut with CLIENT KILL (never FLUSHALL or SHUTDOWN:
// the server is shared); worker-text SIGKILLed and restarted. Prints requests, failures by kind,
// recovery after each fault, processes that died on their own, what stayed open and the audit; exits 1
// unless the run is clean (see bench/lib/chaos/report.mjs). Writes bench/results/chaos-<timestamp>/.
//   --smoke      a shorter load (14 s) at a lower rate
//   --no-build   use the existing dist/
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seedDemo } from '../tools/lib/demo-seed.mjs';
import { WORKER_APPS } from '../tools/lib/processes.mjs';
import { ensureServices } from '../tools/lib/services.mjs';
import { cutRedisConnections, terminatePostgresBackends } from './lib/chaos/faults.mjs';
import { auditLedger, waitForSettlement } from './lib/chaos/ledger-check.mjs';
import { runLoad } from './lib/chaos/load.mjs';
import { tallyOutcomes } from './lib/chaos/outcomes.mjs';
import {
  CHAOS_ENVIRONMENT,
  CHAOS_MODES,
  keyHeaders,
  plannedRequest,
  REQUEST_KINDS,
  requestKindLabel,
} from './lib/chaos/plan.mjs';
import { recoveryAfterFaults } from './lib/chaos/recovery.mjs';
import { renderReport, seconds, verdictReasons } from './lib/chaos/report.mjs';
import { superviseApp } from './lib/chaos/supervised-app.mjs';
import { databaseUrlFor, redisUrl, resetGatewayState } from './lib/gateway-state.mjs';
import { takeRunLock } from './lib/run-lock.mjs';
import { preflight } from './lib/runner.mjs';
import { freePort } from './lib/targets.mjs';

const CHAOS_DATABASE = 'gateway_chaos';
const CHAOS_REDIS_PREFIX = 'chaos';
const ACCOUNT_COUNT = 3;
/** A process that keeps dying is restarted this many times at most. */
const RESTARTS_PER_PROCESS = 3;
/** Nothing below may hold the run longer: the load, the wait and every stop have their own bounds. */
const RUN_DEADLINE_MS = 5 * 60_000;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
  },
});
const mode = options.smoke ? 'smoke' : 'full';
const settings = CHAOS_MODES[mode];
const startedAt = new Date();
const resultsDir = join(root, 'bench', 'results', `chaos-${startedAt.toISOString().replace(/[:.]/g, '-')}`);
const log = (message) =>
  console.log(`[chaos ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${message}`);

takeRunLock(root);
mkdirSync(resultsDir, { recursive: true });

// The clock of the load, the faults and the exits (ms since the load started; before it, since now).
let loadStartedAt = performance.now();
const sinceLoadStart = () => performance.now() - loadStartedAt;
let phase = 'start-up';
const unexpectedExits = [];
const apps = new Map();

function onUnexpectedExit(exit) {
  const record = { ...exit, atMs: sinceLoadStart() };
  unexpectedExits.push(record);
  log(`!! ${exit.name} exited on its own (code ${exit.code}, signal ${exit.signal})`);
  const restarts = unexpectedExits.filter((other) => other.name === exit.name).length;
  // During start-up the failed start reports it; at the end everything is being stopped.
  if (phase !== 'load' && phase !== 'settle') return;
  if (restarts > RESTARTS_PER_PROCESS) {
    record.restartError = `died ${restarts} times`;
    return;
  }
  apps
    .get(exit.name)
    .start()
    .then(
      (readyMs) => {
        record.restartedInMs = readyMs;
        log(`${exit.name} restarted`);
      },
      (error) => (record.restartError = error.message),
    );
}

async function stopEverything() {
  phase = 'stop';
  return Promise.all([...apps.values()].map(async (app) => ({ name: app.name, exit: await app.stop() })));
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    log(`${signal}: stopping every process the script started`);
    stopEverything().then(() => process.exit(130));
  });
}
setTimeout(() => {
  log(`!! the run took more than ${seconds(RUN_DEADLINE_MS)}; stopping`);
  stopEverything().then(() => process.exit(2));
}, RUN_DEADLINE_MS).unref();

async function startStack() {
  if (!options['no-build']) {
    log('building dist/');
    execFileSync(process.execPath, [join(root, 'tools', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  }
  await ensureServices({ log });
  const stateEnv = await resetGatewayState({
    root,
    database: CHAOS_DATABASE,
    redisPrefix: CHAOS_REDIS_PREFIX,
    log,
  });
  const env = { ...stateEnv, ...CHAOS_ENVIRONMENT, LOG_LEVEL: 'info' };
  const [simulatorPort, gatewayPort] = [await freePort(), await freePort()];
  const simulatorUrl = `http://127.0.0.1:${simulatorPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const supervise = (app, appEnv, readiness) =>
    apps.set(
      app,
      superviseApp({ root, app, env: appEnv, logDir: resultsDir, onUnexpectedExit, ...readiness }),
    );
  supervise(
    'upstream-sim',
    { ...process.env, PORT: String(simulatorPort), HOST: '127.0.0.1' },
    { readyUrl: `${simulatorUrl}/__sim/stats` },
  );
  supervise('gateway', { ...env, PORT: String(gatewayPort) }, { readyUrl: `${gatewayUrl}/readyz` });
  for (const worker of WORKER_APPS) supervise(worker, env, { readyLine: 'worker started' });
  log(`starting the simulator, the gateway and ${WORKER_APPS.join(', ')} (logs in ${resultsDir})`);
  await Promise.all([...apps.values()].map((app) => app.start()));

  const accounts = [];
  for (let index = 0; index < ACCOUNT_COUNT; index += 1) {
    accounts.push(await seedDemo({ gatewayUrl, adminToken: env.ADMIN_TOKEN, simulatorUrl }));
  }
  // One request of each kind first: a stack that fails before any fault would make the figures noise.
  for (let index = 0; index < REQUEST_KINDS.length; index += 1) {
    const planned = plannedRequest(index, { accountCount: 1, ratePerSecond: 1 });
    const target = {
      baseUrl: gatewayUrl,
      families: { [planned.family]: keyHeaders(planned.family, accounts[0].key) },
    };
    const problem = await preflight(target, planned.family, planned);
    if (problem)
      throw new Error(`a ${requestKindLabel(planned)} request failed before any fault: ${problem}`);
  }
  return { gatewayUrl, accounts };
}

const FAULT_ACTIONS = {
  postgres: () => terminatePostgresBackends(CHAOS_DATABASE),
  gateway: async () => ({
    detail: `SIGKILL; restarted and ready in ${seconds(await apps.get('gateway').killAndRestart())}`,
  }),
  redis: () =>
    cutRedisConnections(
      redisUrl(),
      [...apps.values()].filter((app) => app.running()).map((app) => ({ name: app.name, pid: app.pid })),
    ),
  'worker-text': async () => ({
    detail: `SIGKILL; restarted and ready in ${seconds(await apps.get('worker-text').killAndRestart())}`,
  }),
};

async function applyFaults() {
  const applied = [];
  for (const { atMs, fault } of settings.faults) {
    const wait = atMs - sinceLoadStart();
    if (wait > 0) await sleep(wait);
    const record = { fault, atMs: sinceLoadStart() };
    log(`fault: ${fault}`);
    try {
      Object.assign(record, await FAULT_ACTIONS[fault]());
    } catch (error) {
      record.error = error.message;
    }
    log(`  ${record.error ? `!! not applied: ${record.error}` : record.detail}`);
    applied.push(record);
  }
  return applied;
}

const run = { mode, settings, accountCount: ACCOUNT_COUNT, unexpectedExits, faults: [], audits: null };
let exitCode = 1;
try {
  const { gatewayUrl, accounts } = await startStack();
  log(
    `load: ${seconds(settings.loadMs)}, faults at ${settings.faults.map((f) => `${seconds(f.atMs)} ${f.fault}`).join(', ')}`,
  );
  phase = 'load';
  loadStartedAt = performance.now();
  const [outcomes, faults] = await Promise.all([
    runLoad({
      baseUrl: gatewayUrl,
      keys: accounts.map((account) => account.key),
      settings,
      startedAt: loadStartedAt,
    }),
    applyFaults(),
  ]);
  run.tally = tallyOutcomes(outcomes);
  run.faults = recoveryAfterFaults(faults, outcomes);
  writeFileSync(join(resultsDir, 'outcomes.json'), `${JSON.stringify(outcomes)}\n`);

  phase = 'settle';
  log(
    `load done (${outcomes.length} requests); waiting up to ${seconds(settings.settleDeadlineMs)} for holds, leases and settlements`,
  );
  const databaseUrl = databaseUrlFor(CHAOS_DATABASE);
  run.settlement = await waitForSettlement({
    databaseUrl,
    redisUrl: redisUrl(),
    redisPrefix: CHAOS_REDIS_PREFIX,
    deadlineMs: settings.settleDeadlineMs,
  });
  try {
    run.audits = await auditLedger({
      root,
      databaseUrl,
      accountIds: accounts.map((account) => account.accountId),
    });
  } catch (error) {
    run.auditError = error.message;
  }
  exitCode = verdictReasons(run).length === 0 ? 0 : 1;
} catch (error) {
  log(`!! ${error.stack ?? error.message}`);
  for (const exit of unexpectedExits)
    log(`!! ${exit.name} died:\n    ${[...exit.stderr, ...exit.errorLogs].join('\n    ')}`);
  run.abortedBy = error.message;
} finally {
  log('stopping');
  run.shutdown = await stopEverything();
}

if (run.tally) {
  const report = renderReport(run);
  writeFileSync(join(resultsDir, 'report.txt'), `${report}\n`);
  console.log(`\n${report}\n`);
}
log(`results in ${resultsDir}`);
process.exit(run.abortedBy ? 1 : exitCode);
