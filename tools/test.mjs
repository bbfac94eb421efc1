// npm test: the whole suite. The checks (types, lint, formatting) and every Jest test: unit specs and
// integration specs against real Postgres, Redis and the simulators. Needs Postgres and Redis on
// 127.0.0.1 (started here if they are not answering). Options pass through to Jest.
//
// The checks are independent and single-threaded, so they run side by side; Jest runs its test files
// in parallel (JEST_WORKERS, default 3 on any machine: the integration files spend much of their time
// waiting on sockets, timers and Postgres, so more workers than cores still shortens the run: the
// whole suite on the 2-core machine once took 530 s with 3 workers and 487 s with 4; but in a slow
// phase of that machine, three fresh-clone runs with 4 took 840-1006 s and each failed on two
// different timing-sensitive tests, chaos and pacing files starved of CPU). For the same reason
// the checks run beside Jest rather than before it, at a lower CPU priority so that the tests' own
// timings are not stretched: they take the CPU the waiting tests leave idle (in a whole Jest run of
// 418 s, about 60 s of CPU; the checks need about 90 s of CPU, and took 55 s of wall time before
// Jest). A check that fails is printed at once (Jest goes on; npm test then exits non-zero); the
// others are printed after Jest.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServices } from './lib/services.mjs';
import { NATIVE_TSC, TYPE_CHECKS } from './typecheck.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jestArgs = process.argv.slice(2);
const jestWorkers = process.env.JEST_WORKERS ?? '3';
const startedAt = Date.now();

const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);

function step(name, command, args) {
  const stepStart = Date.now();
  console.log(`\n== ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(`== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds(stepStart)}s`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Whether the generated Prisma client was written after every file it is generated from. */
function prismaClientIsCurrent() {
  const client = join(root, 'libs', 'db', 'src', 'generated', 'client.ts');
  if (!existsSync(client)) return false;
  const generatedAt = statSync(client).mtimeMs;
  return ['prisma/schema.prisma', 'prisma.config.ts'].every(
    (source) => statSync(join(root, source)).mtimeMs < generatedAt,
  );
}

/** Niceness of the checks: Jest's processes (0) come first when both want the CPU. */
const CHECK_PRIORITY = 10;

/**
 * Runs a check at CHECK_PRIORITY with its output held back; resolves with a report that prints it
 * whole, so that it never interleaves with Jest's output or another check's.
 */
function heldCheck(name, command, args) {
  const stepStart = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    // Set before the child starts its own processes (npm run lint starts ESLint), which inherit it.
    if (child.pid !== undefined) setPriority(child.pid, CHECK_PRIORITY);
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      const took = seconds(stepStart);
      resolve({
        status,
        print() {
          console.log(`\n== ${name}: ${status === 0 ? 'ok' : 'FAILED'} in ${took}s`);
          if (output.length > 0) process.stdout.write(Buffer.concat(output));
        },
      });
    });
  });
}

/** Jest with its output on the terminal; resolves with its exit status. */
function jestRun(args) {
  const stepStart = Date.now();
  console.log('\n== jest');
  return new Promise((resolve) => {
    const child = spawn(bin('jest'), args, { cwd: root, stdio: 'inherit', env: process.env });
    child.on('close', (status) => {
      console.log(`== jest: ${status === 0 ? 'ok' : 'FAILED'} in ${seconds(stepStart)}s`);
      resolve(status ?? 1);
    });
  });
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
await ensureServices();
// npm install generates the client (postinstall): on a fresh clone it is newer than the schema, and a
// second generate would only hold Jest back by a few seconds of the critical path. An install without
// scripts (.ci/run's) leaves it to this step.
if (prismaClientIsCurrent()) console.log('\n== prisma client: generated after its schema, kept');
else step('prisma client', process.execPath, ['tools/prisma-generate.mjs']);
// Before Jest, never beside it: tools/quickstart.int-spec.ts builds into dist/ too. The test files that
// start the built processes link to a snapshot of this build instead of making their own (libs/testing's
// BuiltApps): hard links, which the quickstart's rebuild of dist/ leaves as they are.
step('build', process.execPath, ['tools/build.mjs']);
// The checks start after the build, though lint and format need neither the client nor dist/: niced as
// they are, beside the build they slowed it from 5.2-6.5 s to 8.2-11 s on the idle 2-core machine (swc
// and Vite use both cores), and to 14-15 s in .ci/run, all of it before Jest could start.
const checkRuns = [
  ...TYPE_CHECKS.map(({ name, args }) => heldCheck(`typecheck ${name}`, NATIVE_TSC, args)),
  heldCheck('lint', 'npm', ['run', '--silent', 'lint']),
  heldCheck('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']),
];
const freshBuild = join(root, 'tmp', `test-fresh-build-${process.pid}`);
mkdirSync(dirname(freshBuild), { recursive: true });
step('build snapshot', 'cp', ['-al', 'dist', freshBuild]);
process.on('exit', () => rmSync(freshBuild, { recursive: true, force: true }));
process.env.GATEWAY_TEST_FRESH_BUILD = freshBuild;
const checks = checkRuns.map((check) =>
  check.then((report) => {
    if (report.status !== 0) report.print();
    return report;
  }),
);
const jestStatus = await jestRun(['--ci', `--maxWorkers=${jestWorkers}`, ...jestArgs]);
const reports = await Promise.all(checks);
for (const report of reports) if (report.status === 0) report.print();
if (reports.some((report) => report.status !== 0)) process.exit(1);
if (jestStatus !== 0) process.exit(jestStatus);
console.log(`\nall checks passed in ${seconds(startedAt)}s`);
