// Jest global setup of the integration project: fail at once, with the fix, when Postgres or Redis is
// not answering, instead of letting every test time out.
const net = require('node:net');
const { randomBytes } = require('node:crypto');
const { mkdirSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const { logsDirectory, runDirectory, secretsDirectory, SHARED_BUILD_VARIABLE } = require('./test-run-files');

const postgresUrl = process.env.TEST_POSTGRES_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const redisUrl = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const TIMEOUT_MS = 3000;

async function checkPostgres() {
  const client = new Client({ connectionString: postgresUrl, connectionTimeoutMillis: TIMEOUT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `Integration tests need Postgres at ${postgresUrl} (${error.message}). Start it with:\n` +
        '  pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

function checkRedis() {
  const host = redisUrl.hostname;
  const port = Number(redisUrl.port || 6379);
  return new Promise((resolve, reject) => {
    const fail = (reason) => {
      socket.destroy();
      reject(
        new Error(
          `Integration tests need Redis at ${host}:${port} (${reason}). Start it with:\n` +
            '  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no',
        ),
      );
    };
    const socket = net.connect({ host, port }, () => socket.write('PING\r\n'));
    socket.setTimeout(TIMEOUT_MS, () => fail('no answer'));
    socket.on('error', (error) => fail(error.message));
    socket.once('data', (reply) => {
      socket.destroy();
      if (reply.toString().startsWith('+PONG')) resolve();
      else fail(`unexpected reply ${JSON.stringify(reply.toString().trim())}`);
    });
  });
}

module.exports = async function globalSetup() {
  await Promise.all([checkPostgres(), checkRedis()]);
  rmSync(runDirectory, { recursive: true, force: true });
  mkdirSync(logsDirectory, { recursive: true });
  mkdirSync(secretsDirectory, { recursive: true });
  // Jest starts its workers after this, with this environment: they share one build (BuiltApps).
  // A folder per run, never the run directory, which another run of the same directory would empty
  // under running processes.
  const build = join(__dirname, '..', '..', '..', 'tmp', `test-build-run-${randomBytes(6).toString('hex')}`);
  process.env[SHARED_BUILD_VARIABLE] = build;
};
