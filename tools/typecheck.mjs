// npm run typecheck: the workspace's type check and the console's (browser code: DOM types, JSX,
// bundler resolution, a tsconfig of its own). `node tools/typecheck.mjs console` runs one of them.
// npm test runs the same checks (TYPE_CHECKS) beside Jest.
//
// perf-machinery: native-type-check (docs/performance-machinery.md)
// TypeScript's native compiler (package typescript-native, an alias of typescript@7), on one thread:
// beside Jest the CPU is what is short, and its threads save wall time only on an idle machine. The
// typescript package stays at 6 for the tools that need its JavaScript API (typescript-eslint, Nx).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export const NATIVE_TSC = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');

/** Each check's name (`console` selects that one alone) and the arguments of the compiler. */
export const TYPE_CHECKS = [
  { name: 'workspace', args: ['-p', 'tsconfig.check.json', '--noEmit', '--singleThreaded'] },
  { name: 'console', args: ['-p', 'apps/console/tsconfig.json', '--noEmit', '--singleThreaded'] },
];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv[2];
  const checks = TYPE_CHECKS.filter((check) => only === undefined || check.name === only);
  if (checks.length === 0) {
    console.error(`no type check named ${only} (${TYPE_CHECKS.map((check) => check.name).join(', ')})`);
    process.exit(2);
  }
  for (const check of checks) {
    const result = spawnSync(NATIVE_TSC, check.args, { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}
