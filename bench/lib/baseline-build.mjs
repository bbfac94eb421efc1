// --baseline <commit>: the build of another commit, run beside this one on the same machine, simulator
// and load generator, so that a change is judged by a ratio measured in one phase of the machine
// rather than by absolute figures taken on different days (the text path once lost a third of its
// throughput unseen that way).
//
// The commit is checked out in a git worktree of its own outside the repository (so that this tree's
// lint, format and Jest never see it) and kept between runs; it gets its own node_modules only when
// its lockfile differs from this tree's (otherwise this tree's is linked), then its own Prisma client
// and production build. Its stack runs from that folder, on a database and Redis prefix of its own.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const BASELINE_DATABASE = 'gateway_bench_baseline';
export const BASELINE_REDIS_PREFIX = 'bench-baseline';

/** The short hash `revision` names, or a clear error when it names no commit. */
export function resolveCommit(root, revision) {
  try {
    return execFileSync('git', ['rev-parse', '--short', `${revision}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    throw new Error(`--baseline ${revision}: no such commit in this repository`);
  }
}

/** Where the worktree of `commit` lives; one per commit, reused by later runs. */
export function baselineFolder(commit) {
  return join(tmpdir(), `gateway-bench-baseline-${commit}`);
}

/**
 * Installs what the build of `commit` needs: the worktree, its dependencies (linked when the lockfile
 * is this tree's), its Prisma client and dist/. Returns the folder and the commit's own demo seeding
 * (its admin API is the one that build serves).
 */
export async function prepareBaselineBuild({ root, revision, log }) {
  const commit = resolveCommit(root, revision);
  const folder = baselineFolder(commit);
  const run = (command, args, cwd = folder) =>
    execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(join(folder, 'package.json'))) {
    log(`baseline ${commit}: adding a worktree in ${folder}`);
    run('git', ['worktree', 'prune'], root);
    run('git', ['worktree', 'add', '--detach', '--force', folder, commit], root);
  }
  if (!existsSync(join(folder, 'node_modules'))) {
    const sameLockfile =
      readFileSync(join(root, 'package-lock.json'), 'utf8') ===
      readFileSync(join(folder, 'package-lock.json'), 'utf8');
    if (sameLockfile) {
      symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
    } else {
      log(`baseline ${commit}: its lockfile differs from this tree's; installing its dependencies`);
      run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts']);
    }
  }
  log(`baseline ${commit}: Prisma client and production build`);
  run(process.execPath, [join(folder, 'tools', 'prisma-generate.mjs')]);
  run(process.execPath, [join(folder, 'tools', 'build.mjs')]);
  const { seedDemo } = await import(pathToFileURL(join(folder, 'tools', 'lib', 'demo-seed.mjs')).href);
  return { commit, folder, seedDemo };
}
