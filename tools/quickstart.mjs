// npm run quickstart: from a fresh clone to a working demo. Installs, migrates, builds, starts the
// simulators, the gateway and the workers, seeds a demo account, key and channels, and prints a curl.
// Options: --check (send the demo requests: text, images, a video, music and the theta asset workflow;
//          print the answers, stop everything and exit non-zero if any failed),
//          --skip-install, --port <gateway port>, --sim-port <simulator port>, --database-url <url>
//          (a URL that names no user logs in as psql would: PGUSER, else the OS user).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: options } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    'skip-install': { type: 'boolean', default: false },
    port: { type: 'string', default: process.env.PORT ?? '8080' },
    'sim-port': { type: 'string', default: '4010' },
    'database-url': {
      type: 'string',
      default: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/gateway',
    },
  },
});
const startedAt = Date.now();
const step = (message) =>
  console.log(`[quickstart ${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${message}`);
/** A failed command has said why in its own output: one line more, no stack trace of the quickstart. */
const run = (command, env = process.env) => {
  try {
    execSync(command, { cwd: root, stdio: 'inherit', env });
  } catch {
    console.error(`quickstart: \`${command}\` failed; its output above says why.`);
    process.exit(1);
  }
};

if (!options['skip-install'] && !existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  step('installing dependencies (npm install)');
  run('npm install --no-audit --no-fund');
}

const { ensureServices } = await import('./lib/services.mjs');
const { startApp, stopAll, waitForHttp, WORKER_APPS } = await import('./lib/processes.mjs');
const { seedDemo, demoCurl } = await import('./lib/demo-seed.mjs');
const { demoSecrets } = await import('./lib/demo-env.mjs');
const { databaseLoginProblem, withDefaultUser } = await import('./lib/database-url.mjs');

const databaseUrl = withDefaultUser(options['database-url']);
step('checking Postgres and Redis');
await ensureServices({ log: step });
const loginProblem = await databaseLoginProblem(databaseUrl);
if (loginProblem !== undefined) {
  console.error(`quickstart: ${loginProblem}`);
  process.exit(1);
}
step(`migrating ${databaseUrl.replace(/\/\/[^@]*@/, '//')}`);
run('node tools/migrate.mjs deploy', { ...process.env, DATABASE_URL: databaseUrl });
step('building');
run('node tools/build.mjs');

const secrets = demoSecrets(root);
// Queues, circuits and caches live in Redis under REDIS_PREFIX: a demo on another database gets its own
// prefix, so that its workers never take the jobs of a demo running on `gateway` (and the reverse).
const databaseName = new URL(databaseUrl).pathname.slice(1) || 'gateway';
const redisPrefix =
  process.env.REDIS_PREFIX ??
  (databaseName === 'gateway' ? 'gw' : `gw-${databaseName.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 64));
const gatewayUrl = `http://127.0.0.1:${options.port}`;
const simulatorUrl = `http://127.0.0.1:${options['sim-port']}`;
const env = {
  ...process.env,
  ...secrets,
  DATABASE_URL: databaseUrl,
  PORT: options.port,
  REDIS_PREFIX: redisPrefix,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // The simulator answers some image families with loopback URLs, which the SSRF-safe fetcher refuses
  // unless allowed: only the simulator's own port is.
  SSRF_ALLOW_HOSTS: new URL(simulatorUrl).host,
  // The demo answers an upstream's refusal at create (moderation) with a 400, as the first-party wire
  // does; a deployment chooses (docs/videos.md, "Refused at create").
  TASK_SUBMIT_AT_CREATE_MS: process.env.TASK_SUBMIT_AT_CREATE_MS ?? '5000',
};
step('starting the simulators, the gateway and the workers');
const children = [
  startApp(root, 'upstream-sim', { ...env, PORT: options['sim-port'] }),
  startApp(root, 'gateway', env),
  ...WORKER_APPS.map((app) => startApp(root, app, env)),
];
const stop = async () => {
  await stopAll(children);
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
for (const child of children) {
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) {
      console.error(`${child.appName} exited with code ${code}`);
      void stopAll(children).then(() => process.exit(1));
    }
  });
}

await waitForHttp(`${simulatorUrl}/__sim/stats`);
await waitForHttp(`${gatewayUrl}/readyz`);
step('seeding the demo account, key and channels');
const { key } = await seedDemo({ gatewayUrl, adminToken: secrets.ADMIN_TOKEN, simulatorUrl });

console.log(`
The gateway is running at ${gatewayUrl} (Swagger UI: ${gatewayUrl}/docs).
Operator console: ${gatewayUrl}/console (sign in with the admin token below).
Demo API key (shown once): ${key}
Admin token (from .demo.env): ${secrets.ADMIN_TOKEN}

Try it:
${demoCurl(gatewayUrl, key)}

Press Ctrl-C to stop everything.`);

if (options.check) {
  const { checkDemo } = await import('./lib/demo-check.mjs');
  const passed = await checkDemo({ gatewayUrl, simulatorUrl, key });
  step('done');
  await stopAll(children);
  process.exit(passed ? 0 : 1);
}
