// npm test: the whole suite. Checks first (types, lint, formatting), then every Jest test: unit specs
// and integration specs against real Postgres, Redis and the simulators. Needs Postgres and Redis on
// 127.0.0.1 (started here if they are not answering). Options pass through to Jest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServices } from './lib/services.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const jestArgs = process.argv.slice(2);
const startedAt = Date.now();

function step(name, command, args) {
  const stepStart = Date.now();
  console.log(`\n== ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  console.log(
    `== ${name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - stepStart) / 1000).toFixed(1)}s`,
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const bin = (name) => join(root, 'node_modules', '.bin', name);
await ensureServices();
step('prisma client', process.execPath, ['tools/prisma-generate.mjs']);
step('build', process.execPath, ['tools/build.mjs']);
step('typecheck', bin('tsc'), ['-p', 'tsconfig.check.json', '--noEmit']);
step('lint', 'npm', ['run', '--silent', 'lint']);
step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
step('jest', bin('jest'), ['--ci', ...jestArgs]);
console.log(`\nall checks passed in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
