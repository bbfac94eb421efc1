// The admin-figures scenario: GET /admin/usage and GET /admin/overview over 1,000,000 request-log rows,
// and the memory of the CSV export of those rows. Fills a scratch database of its own with one
// INSERT … SELECT over generate_series, rolls the rows up as worker-text does every minute
// (roll_up_request_logs, migration request_log_rollups; docs/admin-figures.md), starts a built gateway
// on it and times each route. Used by bench/run.mjs (--scenario admin-figures) and bench/admin-usage.mjs.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { migrateDatabase, projectRoot } from '../../tools/migrate-lib.mjs';

const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'gateway_bench_admin_figures';
const DATABASE_URL = SERVER_URL.replace(/\/[^/]*$/, `/${DATABASE}`);
/** What performance.md asks of each JSON route over the million rows. */
export const ADMIN_FIGURES_LIMIT_MS = 1_000;

/**
 * The rows of a day: 40 models, 12 channels, 5,000 keys of 50 accounts, 3% errors, some images and media,
 * latencies spread from 20 ms to 3 s. Enough keys that the widest grouping exports a few hundred
 * thousand CSV rows, and spread so evenly that the hourly rollup still holds 360,000 rows.
 */
const FILL = `
INSERT INTO request_logs (request_id, key_id, account_id, model, channel_id, route, http_status, end_reason,
                          latency_ms, ttfb_ms, input_tokens, output_tokens, image_count, media_seconds,
                          cost_micros, created_at)
SELECT 'bench_' || n, 'key_' || (n % 5000), 'acct_' || (n % 50), 'model-' || (n * 7 % 40), 'ch_' || (n % 12),
       '/v1/chat/completions', CASE WHEN n % 33 = 0 THEN 502 ELSE 200 END,
       CASE WHEN n % 33 = 0 THEN 'upstream_error' ELSE 'completed' END,
       20 + (n * 7919 % 3000), 10, n % 2000, n % 500, CASE WHEN n % 50 = 0 THEN 1 ELSE 0 END,
       CASE WHEN n % 97 = 0 THEN 8 ELSE 0 END, n % 5000,
       (now() AT TIME ZONE 'UTC') - interval '23 hours 59 minutes' * (n::float8 / $1)
  FROM generate_series(1::int8, $1::int8) AS n`;

/** The JSON routes (each must answer under ADMIN_FIGURES_LIMIT_MS), then the widest CSV export. */
export const ADMIN_FIGURES_QUERIES = [
  { path: '/admin/usage?groupBy=model', timed: true },
  { path: '/admin/usage?groupBy=day', timed: true },
  { path: '/admin/usage?groupBy=hour,model', timed: true },
  { path: '/admin/usage?groupBy=account,key', timed: true },
  { path: '/admin/usage?groupBy=hour,channel,model', timed: true },
  { path: '/admin/overview?window=24h&bucket=hour', timed: true },
  { path: '/admin/overview?window=24h&bucket=minute', timed: true },
  { path: '/admin/usage?groupBy=hour,account,key,model,channel&format=csv', timed: false },
];

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function prepareDatabase(rows) {
  await withClient(SERVER_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DATABASE}`);
  });
  await migrateDatabase(DATABASE_URL);
  return withClient(DATABASE_URL, async (client) => {
    let started = Date.now();
    await client.query(FILL, [rows]);
    // Fresh rows: VACUUM sets the visibility map and ANALYZE the statistics, as autovacuum would.
    await client.query('VACUUM ANALYZE request_logs');
    const fillMs = Date.now() - started;
    // What worker-text's first ticks do on a history it has not rolled yet.
    started = Date.now();
    let calls = 0;
    for (;;) {
      calls += 1;
      const { rows: answer } = await client.query(
        "SELECT roll_up_request_logs(interval '2 minutes', interval '1 day') AS caught_up",
      );
      if (answer[0].caught_up) break;
    }
    const rollupMs = Date.now() - started;
    await client.query('VACUUM ANALYZE request_log_minutes');
    await client.query('VACUUM ANALYZE request_log_hours');
    const { rows: counts } = await client.query(
      `SELECT (SELECT count(*)::int FROM request_log_minutes) AS minutes,
              (SELECT count(*)::int FROM request_log_hours) AS hours,
              (SELECT count(*)::int FROM request_logs
                WHERE created_at >= (SELECT rolled_until FROM rollup_watermarks WHERE name = 'minute')) AS raw`,
    );
    return { fillMs, rollupMs, rollupCalls: calls, ...counts[0] };
  });
}

function startGateway(dist, port, adminToken) {
  const entry = join(projectRoot, dist, 'apps', 'gateway', 'src', 'main.js');
  const env = {
    ...process.env,
    DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `bench_admin_${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN: adminToken,
    MASTER_KEY: randomBytes(32).toString('hex'),
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  return spawn(process.execPath, [entry], { cwd: projectRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitUntilUp(port, adminToken) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/admin/usage?groupBy=model&to=2000-01-02`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the gateway did not start');
}

function rssKiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** One call, read to the end: its time, its size, and the gateway's highest RSS while it ran. */
async function timeCall(port, adminToken, path, pid) {
  let peak = rssKiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 20);
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const ms = performance.now() - started;
  clearInterval(sampler);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return { ms, bytes, peakRssKiB: Math.max(peak, rssKiB(pid)) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Fills, rolls up, starts the gateway of `dist`, and times every query `runs` times. Returns the
 * preparation's figures and one row per query; drops its database unless `keep`.
 */
export async function measureAdminFigures({
  dist = 'dist',
  rows = 1_000_000,
  runs = 5,
  keep = false,
  log = console.log,
}) {
  const port = 18000 + Math.floor(Math.random() * 1000);
  const adminToken = randomBytes(24).toString('hex');
  const preparation = await prepareDatabase(rows);
  log(
    `admin-figures: ${rows} request-log rows filled in ${preparation.fillMs} ms (with VACUUM ANALYZE); ` +
      `rolled up in ${preparation.rollupMs} ms (${preparation.rollupCalls} call(s)) into ${preparation.minutes} ` +
      `minute rows and ${preparation.hours} hour rows; ${preparation.raw} rows left raw past the watermark`,
  );
  const gateway = startGateway(dist, port, adminToken);
  const queries = [];
  try {
    await waitUntilUp(port, adminToken);
    for (const { path, timed } of ADMIN_FIGURES_QUERIES) {
      const before = rssKiB(gateway.pid);
      const measured = [];
      for (let run = 0; run < runs; run += 1)
        measured.push(await timeCall(port, adminToken, path, gateway.pid));
      const times = measured.map((run) => run.ms);
      queries.push({
        path,
        timed,
        medianMs: median(times),
        maxMs: Math.max(...times),
        bytes: measured[0].bytes,
        rssBeforeMiB: before / 1024,
        rssPeakMiB: Math.max(...measured.map((run) => run.peakRssKiB)) / 1024,
      });
    }
  } finally {
    gateway.kill('SIGTERM');
    await new Promise((resolve) => gateway.once('exit', resolve));
    if (!keep)
      await withClient(SERVER_URL, (client) =>
        client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`),
      );
  }
  return { rows, runs, preparation, queries };
}

/** The figures as a Markdown table, with the check of the 1 s limit. */
export function renderAdminFigures({ rows, runs, preparation, queries }) {
  const lines = [
    `Over ${rows.toLocaleString('en')} request-log rows (medians of ${runs} calls). Fill ${preparation.fillMs} ms; ` +
      `rollup ${preparation.rollupMs} ms into ${preparation.minutes} minute rows and ${preparation.hours} hour rows; ` +
      `${preparation.raw} rows read raw past the watermark.`,
    '',
    '| request | median ms | max ms | bytes | gateway RSS before → peak (MiB) |',
    '|---|---:|---:|---:|---|',
    ...queries.map(
      (query) =>
        `| ${query.path} | ${query.medianMs.toFixed(0)} | ${query.maxMs.toFixed(0)} | ${query.bytes} | ` +
        `${query.rssBeforeMiB.toFixed(0)} → ${query.rssPeakMiB.toFixed(0)} |`,
    ),
    '',
    `Check: every JSON route's median under ${ADMIN_FIGURES_LIMIT_MS} ms: ${adminFiguresWithinLimit(queries) ? 'yes' : 'NO'}.`,
  ];
  return lines.join('\n');
}

export function adminFiguresWithinLimit(queries) {
  return queries.filter((query) => query.timed).every((query) => query.medianMs < ADMIN_FIGURES_LIMIT_MS);
}
