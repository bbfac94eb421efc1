// npm run bench's companion for the admin reports: fills a scratch database with 1,000,000 request-log
// rows (one INSERT … SELECT over generate_series), starts a built gateway on it, and times
// GET /admin/usage (several groupings, JSON and CSV) and GET /admin/overview, then the gateway's RSS
// while it streams the largest CSV export. Prints a table; writes nothing.
//
//   node bench/admin-usage.mjs [--dist dist] [--rows 1000000] [--runs 5] [--keep]
//
// Build first (npm run build, or node tools/build.mjs --out-dir <dir> and --dist <dir>).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { migrateDatabase, projectRoot } from '../tools/migrate-lib.mjs';

const { values: options } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    rows: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
  },
});
const ROWS = Number(options.rows);
const RUNS = Number(options.runs);
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'gateway_bench_admin_usage';
const DATABASE_URL = SERVER_URL.replace(/\/[^/]*$/, `/${DATABASE}`);
const PORT = 18000 + Math.floor(Math.random() * 1000);
const ADMIN_TOKEN = randomBytes(24).toString('hex');

/**
 * The rows of a day: 40 models, 12 channels, 5,000 keys of 50 accounts, 3% errors, some images and media.
 * Enough keys that the widest grouping exports a few hundred thousand CSV rows.
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

const QUERIES = [
  '/admin/usage?groupBy=model',
  '/admin/usage?groupBy=day',
  '/admin/usage?groupBy=hour,model',
  '/admin/usage?groupBy=account,key',
  '/admin/usage?groupBy=hour,channel,model',
  '/admin/overview?window=24h&bucket=hour',
  '/admin/overview?window=24h&bucket=minute',
  '/admin/usage?groupBy=hour,account,key,model,channel&format=csv',
];

async function withServer(fn) {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function prepareDatabase() {
  await withServer(async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${DATABASE}`);
  });
  await migrateDatabase(DATABASE_URL);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const started = Date.now();
  await client.query(FILL, [ROWS]);
  // Fresh rows: VACUUM sets the visibility map (index-only scans) and ANALYZE the statistics, as
  // autovacuum would on a live table.
  await client.query('VACUUM ANALYZE request_logs');
  await client.end();
  return Date.now() - started;
}

function startGateway() {
  const entry = join(projectRoot, options.dist, 'apps', 'gateway', 'src', 'main.js');
  const env = {
    ...process.env,
    DATABASE_URL,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `bench_admin_${randomBytes(4).toString('hex')}`,
    ADMIN_TOKEN,
    MASTER_KEY: randomBytes(32).toString('hex'),
    PORT: String(PORT),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  return spawn(process.execPath, [entry], { cwd: projectRoot, env, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitUntilUp() {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const response = await fetch(`http://127.0.0.1:${PORT}/admin/usage?groupBy=model&to=2000-01-02`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
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
async function timeCall(path, pid) {
  let peak = rssKiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssKiB(pid))), 20);
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${PORT}${path}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.length;
  const ms = performance.now() - started;
  clearInterval(sampler);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return { ms, bytes, peakRssKiB: Math.max(peak, rssKiB(pid)) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const fillMs = await prepareDatabase();
  console.log(`filled ${ROWS} request-log rows in ${fillMs} ms (with VACUUM ANALYZE)`);
  const gateway = startGateway();
  try {
    await waitUntilUp();
    console.log('| request | median ms | max ms | bytes | gateway RSS before → peak (MiB) |');
    console.log('|---|---:|---:|---:|---|');
    for (const path of QUERIES) {
      const before = rssKiB(gateway.pid);
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await timeCall(path, gateway.pid));
      const times = runs.map((run) => run.ms);
      const peak = Math.max(...runs.map((run) => run.peakRssKiB));
      console.log(
        `| ${path} | ${median(times).toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${runs[0].bytes} | ` +
          `${(before / 1024).toFixed(0)} → ${(peak / 1024).toFixed(0)} |`,
      );
    }
  } finally {
    gateway.kill('SIGTERM');
    await new Promise((resolve) => gateway.once('exit', resolve));
    if (!options.keep)
      await withServer((client) => client.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
