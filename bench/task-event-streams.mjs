// The progress streams' cost: 1,000 open `GET /v1/tasks/{id}/events` streams on one gateway process,
// its RSS and CPU sampled every second while they are idle (heartbeats only) and while progress events
// flow (task rows updated in Postgres: the trigger records each change, the gateway's one feed reads the
// new records of every followed task with one query per TASK_EVENTS_POLL_MS and fans them out to the
// streams of each task). Also the database transactions of the bench database in each phase, to show
// that open streams cost no query per stream per second.
//
//   node bench/task-event-streams.mjs [--streams 1000] [--tasks 100] [--idle-seconds 10]
//        [--flow-seconds 10] [--updates-per-second 100] [--no-build]
//
// Needs Postgres and Redis on 127.0.0.1 (as bench/run.mjs). Builds dist/ unless --no-build, drops and
// migrates its own database `gateway_bench_events`, uses the Redis prefix `bench-events`, starts one
// gateway (LOG_LEVEL=warn) and no worker: the test writes the progress itself, so that only the streams'
// cost is measured. Prints a table and writes bench/results/task-event-streams-<timestamp>.json.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { databaseUrlFor, postAdmin, resetGatewayState } from './lib/gateway-state.mjs';
import { CLOCK_TICKS_PER_SECOND, readProcessTicks, readResidentBytes } from './lib/proc-stats.mjs';
import { freePort } from './lib/targets.mjs';
import { startApp, stopAll, waitForHttp } from '../tools/lib/processes.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DATABASE = 'gateway_bench_events';
const OPEN_BATCH = 50;
const STATISTICS_SETTLE_MS = 11_000;
/** The sampler's own statements per sample (the count, and the snapshot's clearing). */
const SAMPLER_TRANSACTIONS = 2;

const { values: options } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    tasks: { type: 'string', default: '100' },
    'idle-seconds': { type: 'string', default: '10' },
    'flow-seconds': { type: 'string', default: '10' },
    'updates-per-second': { type: 'string', default: '100' },
    'no-build': { type: 'boolean', default: false },
  },
});
const streamCount = Number(options.streams);
const taskCount = Number(options.tasks);
const idleSeconds = Number(options['idle-seconds']);
const flowSeconds = Number(options['flow-seconds']);
const updatesPerSecond = Number(options['updates-per-second']);
const log = (message) => process.stderr.write(`${message}\n`);

if (!options['no-build']) {
  log('building dist/');
  execFileSync(process.execPath, [join(root, 'tools', 'build.mjs')], { cwd: root, stdio: 'inherit' });
}

const children = [];
const database = new pg.Pool({ connectionString: databaseUrlFor(DATABASE), max: 2 });
let exitCode = 0;
try {
  const env = await resetGatewayState({ root, database: DATABASE, redisPrefix: 'bench-events', log });
  const port = await freePort();
  const gateway = startApp(
    root,
    'gateway',
    {
      ...env,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: String(streamCount),
      TASK_EVENTS_MAX_STREAMS: String(streamCount * 2),
    },
    { quiet: true },
  );
  children.push(gateway);
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForHttp(`${baseUrl}/healthz`, 60_000);

  const account = await postAdmin(baseUrl, env.ADMIN_TOKEN, '/admin/accounts', { name: 'bench-events' });
  const key = await postAdmin(baseUrl, env.ADMIN_TOKEN, '/admin/keys', {
    accountId: account.id,
    name: 'bench',
  });
  const taskIds = await insertTasks(account.id, key.id, taskCount);
  const rssWithoutStreams = readResidentBytes(gateway.pid);
  log(`${taskCount} running tasks written; opening ${streamCount} streams`);

  const streams = await openStreams(baseUrl, key.key, taskIds, streamCount);
  // An idle backend reports its last second of statistics up to 10 s late: the setup's writes settle first.
  log(
    `${streams.open()} streams open; settling ${STATISTICS_SETTLE_MS / 1000} s, then sampling ${idleSeconds} s idle`,
  );
  await sleep(STATISTICS_SETTLE_MS);
  const baseline = { rss: readResidentBytes(gateway.pid) };
  const idle = await samplePhase(gateway.pid, idleSeconds, streams, async () => {});

  log(`progress flowing: ${updatesPerSecond} task updates/s for ${flowSeconds} s`);
  let next = 0;
  const flow = await samplePhase(gateway.pid, flowSeconds, streams, async () => {
    // One tick a second: this second's updates, spread over the tasks round-robin, in statements of 10.
    const ids = [];
    for (let index = 0; index < updatesPerSecond; index += 1)
      ids.push(taskIds[(next + index) % taskIds.length]);
    next += updatesPerSecond;
    for (let start = 0; start < ids.length; start += 10) {
      await database.query('UPDATE tasks SET progress = (progress + 1) % 100 WHERE id = ANY($1)', [
        ids.slice(start, start + 10),
      ]);
      await sleep(1000 / Math.ceil(ids.length / 10) / 2);
    }
  });
  await sleep(1000);
  const result = {
    startedAt: new Date().toISOString(),
    streams: streamCount,
    tasks: taskCount,
    streamsOpen: streams.open(),
    failedToOpen: streams.failed(),
    rssWithoutStreamsMiB: mib(rssWithoutStreams),
    rssBeforeSamplingMiB: mib(baseline.rss),
    idle: summarise(idle),
    flow: { ...summarise(flow), updatesPerSecond, eventsDelivered: flow.events },
    clockTicksPerSecond: CLOCK_TICKS_PER_SECOND,
    samples: { idle: idle.samples, flow: flow.samples },
  };
  streams.close();
  const directory = join(root, 'bench', 'results');
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `task-event-streams-${result.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  printTable(result);
  log(`raw samples: ${file}`);
} catch (error) {
  log(`failed: ${error instanceof Error ? error.stack : String(error)}`);
  exitCode = 1;
} finally {
  await database.end().catch(() => {});
  await stopAll(children);
}
process.exit(exitCode);

async function insertTasks(accountId, keyId, count) {
  const ids = Array.from(
    { length: count },
    () => `music_${randomBytes(16).toString('base64url').slice(0, 22)}`,
  );
  await database.query(
    `INSERT INTO tasks (id, kind, key_id, account_id, model, status, progress, request, deadline_at)
     SELECT id, 'music', $2, $3, 'lambda-v3-0', 'processing', 1, '{}', now() + interval '1 hour'
       FROM unnest($1::text[]) AS id`,
    [ids, keyId, accountId],
  );
  return ids;
}

/** Opens the streams in batches (task i gets streams i, i + tasks, …); counts their events. */
async function openStreams(baseUrl, key, taskIds, count) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const requests = [];
  let open = 0;
  let failed = 0;
  let events = 0;
  const opening = [];
  for (let index = 0; index < count; index += 1) {
    opening.push(
      new Promise((resolve) => {
        const request = httpRequest(`${baseUrl}/v1/tasks/${taskIds[index % taskIds.length]}/events`, {
          agent,
          headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
        });
        requests.push(request);
        request.once('response', (response) => {
          if (response.statusCode !== 200) {
            failed += 1;
            response.resume();
            return resolve();
          }
          response.setEncoding('utf8');
          let counted = false;
          response.on('data', (chunk) => {
            const found = chunk.split('\nevent: ').length - 1;
            events += found;
            if (!counted && found > 0) {
              counted = true;
              open += 1;
              resolve();
            }
          });
          response.once('end', () => {
            if (counted) open -= 1;
          });
        });
        request.once('error', () => {
          failed += 1;
          resolve();
        });
        request.end();
      }),
    );
    if (opening.length % OPEN_BATCH === 0) await Promise.all(opening.slice(-OPEN_BATCH));
  }
  await Promise.all(opening);
  return {
    open: () => open,
    failed: () => failed,
    events: () => events,
    close: () => {
      for (const request of requests) request.destroy();
    },
  };
}

/** One sample a second of the gateway's RSS and CPU (and the database's transactions), `act` each second. */
async function samplePhase(pid, seconds, streams, act) {
  const samples = [];
  const eventsBefore = streams.events();
  let ticks = readProcessTicks(pid);
  let transactions = await databaseTransactions();
  let at = Date.now();
  for (let second = 0; second < seconds; second += 1) {
    const tick = act();
    await sleep(Math.max(0, at + 1000 - Date.now()));
    await tick;
    const now = Date.now();
    const nowTicks = readProcessTicks(pid);
    const nowTransactions = await databaseTransactions();
    samples.push({
      rssMiB: mib(readResidentBytes(pid)),
      cpuPercent: round((((nowTicks - ticks) / CLOCK_TICKS_PER_SECOND) * 100_000) / (now - at)),
      databaseTransactions: nowTransactions - transactions - SAMPLER_TRANSACTIONS,
    });
    ticks = nowTicks;
    transactions = nowTransactions;
    at = now;
  }
  return { samples, events: streams.events() - eventsBefore };
}

async function databaseTransactions() {
  const { rows } = await database.query(
    'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  // Statistics reach pg_stat_database up to a second late: a tendency, not an exact count.
  await database.query('SELECT pg_stat_clear_snapshot()');
  return Number(rows[0].n);
}

function summarise({ samples }) {
  const values = (name) => samples.map((sample) => sample[name]);
  const mean = (list) => round(list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length));
  return {
    rssMiB: { min: Math.min(...values('rssMiB')), max: Math.max(...values('rssMiB')) },
    cpuPercent: { mean: mean(values('cpuPercent')), max: Math.max(...values('cpuPercent')) },
    databaseTransactionsPerSecond: mean(values('databaseTransactions')),
  };
}

function printTable(result) {
  const row = (name, phase, extra = '') =>
    `| ${name} | ${phase.rssMiB.min}–${phase.rssMiB.max} | ${phase.cpuPercent.mean} | ${phase.cpuPercent.max} | ${phase.databaseTransactionsPerSecond} | ${extra} |`;
  const lines = [
    `${result.streamsOpen} streams open on ${result.tasks} tasks (${result.failedToOpen} failed to open); gateway RSS ${result.rssWithoutStreamsMiB} MiB before the streams, ${result.rssBeforeSamplingMiB} MiB with them`,
    '',
    '| phase | gateway RSS (MiB) | CPU % of a core, mean | max | DB transactions/s | events |',
    '|---|---|---|---|---|---|',
    row('idle (heartbeats only)', result.idle),
    row(
      `progress flowing (${result.flow.updatesPerSecond} task updates/s)`,
      result.flow,
      `${result.flow.eventsDelivered} delivered`,
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function mib(bytes) {
  return round(bytes / 1024 / 1024);
}

function round(value) {
  return Math.round(value * 10) / 10;
}
