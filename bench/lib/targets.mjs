// The processes under test: the simulator (the "direct" target and every target's upstream), the
// reference proxy, the gateway stack (Postgres, Redis, gateway, four workers) and the plain task
// insert-and-enqueue beside it.
// Every child is remembered so that stopEverything() can end it, also on failure or Ctrl-C.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp, stopAll, waitForHttp, WORKER_APPS } from '../../tools/lib/processes.mjs';
import { callgrindCounter, callgrindWrapper } from './callgrind.mjs';
import { ensureServices } from '../../tools/lib/services.mjs';
import { seedDemo } from '../../tools/lib/demo-seed.mjs';
import pg from 'pg';
import { databaseUrlFor, postAdmin, putAdmin, resetGatewayState } from './gateway-state.mjs';
import { findProcesses } from './proc-stats.mjs';
import { PROXY_KEY } from '../reference-proxy.mjs';

export const TARGET_NAMES = [
  'direct',
  'proxy',
  'gateway',
  'gateway-warn',
  'gateway-traced',
  'baseline',
  'insert-enqueue',
];
export const BENCH_DATABASE = 'gateway_bench';
export const BENCH_REDIS_PREFIX = 'bench';
const BENCH_CREDIT_MICROS = '1000000000000000';
const SIM_KEYS = { native: 'sim-kappa-key', openai: 'sim-compat-key' };
/** The image scenario's channel and price (per image, every tier), added beside the demo's. */
export const BENCH_IMAGE_CHANNEL = {
  type: 'compat',
  name: 'bench-images',
  secret: SIM_KEYS.openai,
  models: [{ model: 'draw-2' }],
  priority: 0,
};
export const BENCH_IMAGE_PRICES = [{ model: 'draw-2', perImage: { default: '20000' } }];
/** The task scenario's channel and price (per call and per second, every resolution tier). */
export const BENCH_VIDEO_CHANNEL = {
  type: 'compat',
  name: 'bench-videos',
  secret: SIM_KEYS.openai,
  models: [{ model: 'delta-2' }],
  priority: 0,
};
export const BENCH_VIDEO_PRICES = [
  { model: 'delta-2', perCall: '1000', perVideoSecond: { default: '10000' } },
];

export const TARGET_DESCRIPTIONS = {
  direct: 'the load generator straight to the simulator',
  proxy: 'bench/reference-proxy.mjs: Fastify + undici Pool, key check, JSON parse, usage extraction',
  gateway:
    'a public gateway replica (ADMIN_API_ENABLED=false) with LOG_LEVEL=info (as in production), Postgres, Redis, the four workers and an admin instance running',
  'gateway-warn':
    'the same replica with LOG_LEVEL=warn (no per-request log line), same database, workers and admin instance',
  'gateway-traced':
    'the same replica with tracing on (OTEL_EXPORTER_OTLP_ENDPOINT): its spans go to bench/otlp-sink.mjs, a receiver on loopback that counts them; same database, workers and admin instance',
  baseline:
    'the same topology (replica at LOG_LEVEL=info, workers, admin instance) built from the --baseline commit, on a database and Redis prefix of its own',
  'insert-enqueue':
    "bench/reference-task-server.mjs (video tasks only): Fastify, plain pg and bullmq; per create the gateway's hold statement, the same task row and its step job on a queue no worker reads; no key lookup, validation or admission",
};

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const nativeHeaders = (key) => ({ 'x-vendor-api-key': key });
const bearerHeaders = (key) => ({ authorization: `Bearer ${key}` });
/** The route families a target serves with one OpenAI-style bearer key: chat and both image formats. */
const bearerFamilies = (key) => ({
  openai: bearerHeaders(key),
  'image-url': bearerHeaders(key),
  'image-b64': bearerHeaders(key),
});

/** The OpenTelemetry variables that turn tracing on (libs/observability's tracesUrlOf reads both). */
const OTLP_ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];

/**
 * The environment of one measured public replica: `gateway-warn` logs at warn, `gateway-traced` exports
 * its spans to the OTLP sink (named after itself), and every other replica has tracing off whatever the
 * harness's own environment says, so that only the traced target pays for it.
 */
export function replicaEnv(name, baseEnv, { port, otlpSinkUrl }) {
  const env = {
    ...baseEnv,
    PORT: String(port),
    LOG_LEVEL: name.endsWith('-warn') ? 'warn' : 'info',
    ADMIN_API_ENABLED: 'false',
    ADMIN_TOKEN: '',
  };
  for (const variable of OTLP_ENDPOINT_VARIABLES) env[variable] = '';
  if (name === 'gateway-traced') {
    if (!otlpSinkUrl) throw new Error('gateway-traced needs the OTLP sink');
    env.OTEL_EXPORTER_OTLP_ENDPOINT = otlpSinkUrl;
    env.OTEL_SERVICE_NAME = name;
  }
  return env;
}

/**
 * --key-limits: every governance limit on the stack's key, each far above what a run can reach, so
 * that the text path is measured with its limit checks running (issue 32 asks for its figures with
 * limits configured) and no request is refused. The admin API names are the contract.
 */
export const BENCH_KEY_LIMITS = {
  requestsPerMinute: 100_000_000,
  tokensPerMinute: 1_000_000_000,
  concurrentRequests: 100_000,
  outstandingTasks: 1_000_000,
};

/** The id of the one key seeded for `accountId` in `database`. */
async function keyIdOf(accountId, database = BENCH_DATABASE) {
  const client = new pg.Client({ connectionString: databaseUrlFor(database) });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT id FROM api_keys WHERE account_id = $1', [accountId]);
    if (rows.length !== 1) throw new Error(`expected one key of ${accountId}, found ${rows.length}`);
    return rows[0].id;
  } finally {
    await client.end();
  }
}

/**
 * Starts and remembers processes. `log` prints progress; `logDir` receives the stdout/stderr of the
 * processes whose output is not the product's (proxy, insert-enqueue, OTLP sink); `profileDir` turns
 * on --cpu-prof for the gateway target; `taskStreams` is how many progress streams the task-streams
 * scenario opens for the stack's one account (the gateway's cap per account, 100 by default).
 */
export function createStack({
  root,
  logDir,
  log,
  profileDir = null,
  videoWorkers = 1,
  taskStreams = 100,
  keyLimits = false,
  callgrindDir = null,
}) {
  const children = [];
  let stopping = false;
  let objectStoreDir = null;
  /** What the task baseline writes with: the gateway stack's database, Redis prefix, account, key, channel. */
  let taskBaselineSetup = null;
  const unexpectedExits = [];

  function remember(child, name) {
    child.targetName = name;
    children.push(child);
    child.once('exit', (code, signal) => {
      if (!stopping) {
        unexpectedExits.push(`${name} exited (code ${code}, signal ${signal})`);
        log(`!! ${name} exited unexpectedly (code ${code}, signal ${signal})`);
      }
    });
    return child;
  }

  /** Ready when `url` answers; fails at once when the process exits first. */
  function waitUntilReady(child, url, timeoutMs = 60_000) {
    const ready = waitForHttp(url, timeoutMs);
    const exited = new Promise((_resolve, reject) => {
      const fail = () =>
        reject(new Error(`${child.targetName} exited (code ${child.exitCode}, signal ${child.signalCode})`));
      if (child.exitCode !== null || child.signalCode !== null) return fail();
      child.once('exit', fail);
      const stopWatching = () => child.off('exit', fail);
      ready.then(stopWatching, stopWatching);
    });
    return Promise.race([ready, exited]);
  }

  function spawnLogged(name, args, env) {
    const logFile = openSync(join(logDir, `${name}.log`), 'a');
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', logFile, logFile] });
    closeSync(logFile);
    return remember(child, name);
  }

  /** The OTLP receiver of the gateway-traced target (bench/otlp-sink.mjs), a process of its own. */
  async function startOtlpSink() {
    const port = await freePort();
    const child = spawnLogged('otlp-sink', [join(root, 'bench', 'otlp-sink.mjs')], {
      ...process.env,
      PORT: String(port),
    });
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(child, `${url}/__sink/stats`, 30_000);
    return { url, pid: child.pid };
  }

  async function startSimulator() {
    const port = await freePort();
    const child = remember(
      startApp(
        root,
        'upstream-sim',
        { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
        { quiet: true },
      ),
      'simulator',
    );
    const url = `http://127.0.0.1:${port}`;
    await waitUntilReady(child, `${url}/__sim/stats`, 30_000);
    return { url, pid: child.pid };
  }

  function directTarget(simulator) {
    return {
      name: 'direct',
      baseUrl: simulator.url,
      families: { native: nativeHeaders(SIM_KEYS.native), ...bearerFamilies(SIM_KEYS.openai) },
      mainPid: simulator.pid,
      groups: { main: [simulator.pid] },
    };
  }

  async function startProxy(simulator) {
    const port = await freePort();
    const child = spawnLogged('proxy', [join(root, 'bench', 'reference-proxy.mjs')], {
      ...process.env,
      PORT: String(port),
      UPSTREAM_URL: simulator.url,
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(child, `${baseUrl}/__proxy/stats`, 30_000);
    return {
      name: 'proxy',
      baseUrl,
      families: { native: nativeHeaders(PROXY_KEY), ...bearerFamilies(PROXY_KEY) },
      mainPid: child.pid,
      groups: { main: [child.pid], simulator: [simulator.pid] },
    };
  }

  /**
   * Configures BENCH_KEY_LIMITS on the account's key. A build from before the governance API (a
   * --baseline) refuses the field: that build runs without limits, and the log says so.
   */
  async function limitKey(adminUrl, adminToken, accountId, database, name) {
    const keyId = await keyIdOf(accountId, database);
    const response = await fetch(`${adminUrl}/admin/keys/${keyId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limits: BENCH_KEY_LIMITS }),
    });
    if (response.ok) {
      log(`${name}: limits on its key: ${JSON.stringify(BENCH_KEY_LIMITS)}`);
    } else {
      log(`${name}: this build takes no limits on keys (${response.status}); it runs without`);
    }
    await response.body?.cancel();
  }

  /**
   * A fresh `gateway_bench` database (dropped, then migrated), a clean `bench:` Redis prefix, the four
   * workers, the demo channels pointing at the simulator and a key whose account has more credit than
   * any run can spend. The topology is the README's production one: the measured gateways (one per
   * requested log level: a name ending in `-warn` logs at warn) are public replicas
   * (ADMIN_API_ENABLED=false), configured through one more gateway instance that serves /admin and
   * takes no traffic. `build` runs another commit's build instead (--baseline): its folder, database,
   * Redis prefix and demo seeding.
   */
  async function startGateways(simulator, names, build = {}) {
    const {
      appRoot = root,
      database = BENCH_DATABASE,
      redisPrefix = BENCH_REDIS_PREFIX,
      seed = seedDemo,
    } = build;
    await ensureServices({ log });
    const stateEnv = await resetGatewayState({ root: appRoot, database, redisPrefix, log });
    objectStoreDir = mkdtempSync(join(tmpdir(), 'gateway-bench-objects-'));
    const baseEnv = {
      ...stateEnv,
      LOG_LEVEL: 'info',
      // The image scenario's upstream (the simulator) answers URLs on loopback, which the SSRF-safe
      // fetcher refuses unless allowed; this stack only, never a default.
      SSRF_ALLOW_HOSTS: '127.0.0.1',
      // The stored images of a run are thrown away with the stack.
      OBJECT_STORE_DIR: objectStoreDir,
      // The task-streams scenario opens all its streams for the stack's one account.
      TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: String(taskStreams),
      // No worker serves /metrics: the harness never reads them, and the workers' default ports
      // (9101-9104) belong to whatever else runs on the machine (a demo, say).
      WORKER_METRICS_PORT: '0',
    };
    // With --profile, worker-video runs under --cpu-prof too, its profiles beside the gateway's folder.
    const workerFlags = (app) =>
      profileDir && app === 'worker-video'
        ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, '..', 'worker-video-profile')}`]
        : [];
    const workers = WORKER_APPS.map((app) =>
      remember(
        startApp(appRoot, app, baseEnv, { quiet: true, nodeFlags: workerFlags(app) }),
        `${names[0]} ${app}`,
      ),
    );
    // More worker-video processes (--video-workers) share the queue.
    for (let extra = 1; extra < videoWorkers; extra += 1) {
      workers.push(
        remember(
          startApp(appRoot, 'worker-video', baseEnv, { quiet: true }),
          `${names[0]} worker-video ${extra + 1}`,
        ),
      );
    }
    const adminPort = await freePort();
    const adminGateway = {
      child: remember(
        startApp(
          appRoot,
          'gateway',
          { ...baseEnv, PORT: String(adminPort), LOG_LEVEL: 'warn' },
          { quiet: true },
        ),
        `${names[0]} admin`,
      ),
      baseUrl: `http://127.0.0.1:${adminPort}`,
    };
    const otlpSink = names.includes('gateway-traced') ? await startOtlpSink() : null;
    const gateways = [];
    for (const name of names) {
      const port = await freePort();
      const env = replicaEnv(name, baseEnv, { port, otlpSinkUrl: otlpSink?.url });
      // The baseline build is profiled beside this one (its own folder), so that an A/B can be read
      // function by function.
      const profileTarget = { gateway: profileDir, baseline: profileDir && `${profileDir}-baseline` }[name];
      const nodeFlags = profileTarget ? ['--cpu-prof', `--cpu-prof-dir=${profileTarget}`] : [];
      const wrapper = callgrindDir ? callgrindWrapper(callgrindDir, name) : [];
      // --cpu-prof is not allowed in NODE_OPTIONS: it goes on the command line.
      const child = remember(startApp(appRoot, 'gateway', env, { quiet: true, nodeFlags, wrapper }), name);
      gateways.push({ name, child, baseUrl: `http://127.0.0.1:${port}` });
    }
    // Under callgrind a gateway starts 20–50 times slower.
    const readyTimeoutMs = callgrindDir ? 600_000 : 60_000;
    await Promise.all(
      [adminGateway, ...gateways].map((gateway) =>
        waitUntilReady(gateway.child, `${gateway.baseUrl}/readyz`, readyTimeoutMs),
      ),
    );
    const { key, accountId } = await seed({
      gatewayUrl: adminGateway.baseUrl,
      adminToken: baseEnv.ADMIN_TOKEN,
      simulatorUrl: simulator.url,
    });
    await putAdmin(adminGateway.baseUrl, baseEnv.ADMIN_TOKEN, '/admin/prices', {
      prices: [...BENCH_IMAGE_PRICES, ...BENCH_VIDEO_PRICES],
    });
    const channelIds = {};
    for (const channel of [BENCH_IMAGE_CHANNEL, BENCH_VIDEO_CHANNEL]) {
      const created = await postAdmin(adminGateway.baseUrl, baseEnv.ADMIN_TOKEN, '/admin/channels', {
        ...channel,
        baseUrl: simulator.url,
      });
      channelIds[channel.name] = created.id;
    }
    await postAdmin(adminGateway.baseUrl, baseEnv.ADMIN_TOKEN, `/admin/accounts/${accountId}/credits`, {
      amountMicros: BENCH_CREDIT_MICROS,
      idempotencyKey: `bench-credit-${accountId}`,
      note: 'benchmark credit',
    });
    if (keyLimits) await limitKey(adminGateway.baseUrl, baseEnv.ADMIN_TOKEN, accountId, database, names[0]);
    const redisPids = findProcesses(['redis-server']);
    const workerPids = workers.map((worker) => worker.pid);
    // The insert-and-enqueue writes beside this tree's own stack, never beside a baseline's.
    if (appRoot === root) {
      taskBaselineSetup = {
        env: baseEnv,
        key,
        ids: {
          accountId,
          keyId: await keyIdOf(accountId),
          channelId: channelIds[BENCH_VIDEO_CHANNEL.name],
        },
        redisPids,
      };
    }
    return gateways.map(({ name, child, baseUrl }) => ({
      name,
      baseUrl,
      families: { native: nativeHeaders(key), ...bearerFamilies(key), 'video-tasks': bearerHeaders(key) },
      mainPid: child.pid,
      callgrind: callgrindDir
        ? callgrindCounter({ dir: callgrindDir, name, pid: child.pid, host: baseEnv.HOST })
        : null,
      // What the task scenario reads besides /proc: the simulator's counts, the stack's database and
      // queues, the worker that polls, and the environment that sets its timing.
      tasks: {
        simulatorUrl: simulator.url,
        // The build the stack runs, whose own poll rule the task scenario reads.
        dist: join(appRoot, 'dist'),
        database,
        redisPrefix,
        env: baseEnv,
        workerPids: workers.filter((worker) => worker.appName === 'worker-video').map((worker) => worker.pid),
        // The account whose key the target holds: the task-streams scenario writes its tasks for it.
        accountId,
      },
      groups: {
        main: [child.pid],
        workers: workerPids,
        'admin gateway': [adminGateway.child.pid],
        postgres: () => findProcesses(['postgres:', ` ${database} `]),
        redis: redisPids,
        simulator: [simulator.pid],
        // The traced replica's receiver: what a collector beside it would cost, apart from the gateway.
        ...(name === 'gateway-traced' ? { 'otlp sink': [otlpSink.pid] } : {}),
      },
      ...(name === 'gateway-traced' ? { otlpSinkUrl: otlpSink.url } : {}),
    }));
  }

  /**
   * The plain insert-and-enqueue of video tasks (bench/reference-task-server.mjs), writing into the
   * gateway stack's database and Redis prefix for the stack's account, key and video channel: the
   * gateway stack must have started first.
   */
  async function startTaskBaseline() {
    if (!taskBaselineSetup) throw new Error('insert-enqueue needs the gateway stack: add the gateway target');
    const { env, key, ids, redisPids } = taskBaselineSetup;
    if (!ids.channelId) throw new Error(`the admin API named no id for channel ${BENCH_VIDEO_CHANNEL.name}`);
    const port = await freePort();
    const child = spawnLogged('insert-enqueue', [join(root, 'bench', 'reference-task-server.mjs')], {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: env.DATABASE_URL,
      REDIS_URL: env.REDIS_URL,
      REDIS_PREFIX: env.REDIS_PREFIX,
      ACCOUNT_ID: ids.accountId,
      KEY_ID: ids.keyId,
      CHANNEL_ID: ids.channelId,
      VIDEO_PRICE: JSON.stringify(BENCH_VIDEO_PRICES[0]),
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilReady(child, `${baseUrl}/__baseline/stats`, 30_000);
    return {
      name: 'insert-enqueue',
      baseUrl,
      // The gateway's key header, so that both parse the same request; the baseline does not read it.
      families: { 'video-tasks': bearerHeaders(key) },
      mainPid: child.pid,
      groups: {
        main: [child.pid],
        postgres: () => findProcesses(['postgres:', ` ${BENCH_DATABASE} `]),
        redis: redisPids,
      },
    };
  }

  /** Throws when a process under test has died: the figures after that point would mean nothing. */
  function assertAlive() {
    if (unexpectedExits.length > 0) throw new Error(unexpectedExits.join('; '));
  }

  /** SIGTERM to every child still running, then wait; calling it again waits for the same stop. */
  let stopped = null;
  function stopEverything() {
    stopping = true;
    stopped ??= stopAll(
      children.filter((child) => child.exitCode === null && child.signalCode === null),
    ).then(() => {
      if (objectStoreDir) rmSync(objectStoreDir, { recursive: true, force: true });
    });
    return stopped;
  }

  return {
    startSimulator,
    directTarget,
    startProxy,
    startGateways,
    startTaskBaseline,
    assertAlive,
    stopEverything,
  };
}
