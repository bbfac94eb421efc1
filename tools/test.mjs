// npm test: the whole suite. Checks first (types, lint, formatting), then every Jest test: unit specs
// and integration specs against real Postgres, Redis and the simulators. Needs Postgres and Redis on
// 127.0.0.1 (started here if they are not answering). Options pass through to Jest.
//
// The three checks are independent and single-threaded, so they run side by side; Jest runs its test
// files in parallel (JEST_WORKERS, default 4 on any machine: the integration files spend much of their
// time waiting on sockets, timers and Postgres, so more workers than cores still shortens the run: the
// whole suite on the 2-core machine took 530 s with 3 workers and 487 s with 4).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServices } from './lib/services.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jestArgs = process.argv.slice(2);
const jestWorkers = process.env.JEST_WORKERS ?? '4';
const startedAt = Date.now();

const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

function step(name, command, args) {
  const stepStart = Date.now();
  console.log(`\n== ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds(stepStart)}s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Runs a step with its output held back, then prints it whole, so parallel steps never interleave. */
function quietStep(name, command, args) {
  const stepStart = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      console.log(`\n== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds(stepStart)}s`);
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      resolve(status);
    });
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
await ensureServices();
step('prisma client', process.execPath, ['tools/prisma-generate.mjs']);
step('build', process.execPath, ['tools/build.mjs']);
const checks = await Promise.all([
  quietStep('typecheck', bin('tsc'), ['-p', 'tsconfig.check.json', '--noEmit']),
  // The console is browser code (DOM types, JSX, bundler resolution): a tsconfig of its own.
  quietStep('typecheck console', bin('tsc'), ['-p', 'apps/console/tsconfig.json', '--noEmit']),
  quietStep('lint', 'npm', ['run', '--silent', 'lint']),
  quietStep('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
]);
if (checks.some((status) => status !== 0)) process.exit(1);
step('jest', bin('jest'), ['--ci', `--maxWorkers=${jestWorkers}`, ...jestArgs]);
console.log(`\nall checks passed in ${seconds(startedAt)}s`);
