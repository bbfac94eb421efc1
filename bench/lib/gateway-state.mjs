// The state a gateway stack under test starts from: its own database (dropped, then migrated), its own
// Redis prefix (emptied) and the environment its gateway and worker processes share. Used by the
// benchmark (bench/lib/targets.mjs) and the fault script (bench/chaos.mjs), each with its own names.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { request } from 'undici';

/** A URL of database `name` on the Postgres the harness talks to over TCP. */
export function databaseUrlFor(name) {
  const url = new URL(process.env.BENCH_DATABASE_BASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${name}`;
  return url.toString();
}

export function redisUrl() {
  return process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/**
 * The gateway and workers reach a co-located Postgres through its Unix socket when there is one (the
 * recommended setup, see README): on loopback TCP the kernel runs the receiving side of every write
 * in the writer's system call, which the profile showed as the largest single cost of a request.
 */
const POSTGRES_SOCKET_DIRECTORY = '/var/run/postgresql';

function appDatabaseUrlFor(name) {
  if (process.env.BENCH_DATABASE_BASE_URL || !existsSync(join(POSTGRES_SOCKET_DIRECTORY, '.s.PGSQL.5432'))) {
    return databaseUrlFor(name);
  }
  return `postgresql://postgres@localhost/${name}?host=${encodeURIComponent(POSTGRES_SOCKET_DIRECTORY)}`;
}

async function dropDatabase(name) {
  const client = new pg.Client({ connectionString: databaseUrlFor('postgres') });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function deleteRedisKeys(url, prefix) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Drops and migrates `database`, deletes the keys under `redisPrefix`, and returns the environment of
 * the stack's processes (fresh admin token and master key; LOG_LEVEL and PORT are the caller's).
 */
export async function resetGatewayState({ root, database, redisPrefix, log }) {
  log(`resetting database ${database} and Redis prefix ${redisPrefix}:`);
  await dropDatabase(database);
  execFileSync(process.execPath, [join(root, 'tools', 'migrate.mjs'), 'deploy', '--quiet'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrlFor(database) },
    stdio: 'inherit',
  });
  await deleteRedisKeys(redisUrl(), redisPrefix);
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: appDatabaseUrlFor(database),
    REDIS_URL: redisUrl(),
    REDIS_PREFIX: redisPrefix,
    ADMIN_TOKEN: randomBytes(24).toString('hex'),
    MASTER_KEY: randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
  };
}

export function postAdmin(gatewayUrl, adminToken, path, body) {
  return sendAdmin('POST', gatewayUrl, adminToken, path, body);
}

export function putAdmin(gatewayUrl, adminToken, path, body) {
  return sendAdmin('PUT', gatewayUrl, adminToken, path, body);
}

async function sendAdmin(method, gatewayUrl, adminToken, path, body) {
  const answer = await request(`${gatewayUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await answer.body.text();
  if (answer.statusCode >= 300) throw new Error(`${method} ${path} answered ${answer.statusCode}: ${text}`);
  return JSON.parse(text);
}
