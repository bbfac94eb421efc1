import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Written last, so that its presence means the folder holds a whole build. */
const DONE_FILE = '.built';
const POLL_MS = 100;
/** A build takes seconds; a loaded machine may stretch it, but not this far. */
const WAIT_LIMIT_MS = 300_000;

/**
 * Runs `build` (which fills `folder`) once for every process of a test run: Jest's workers each ask,
 * the first takes the lock and builds, the others wait until the build is there. A build that fails
 * releases the lock, so the next caller tries again and reports its own failure.
 */
export function buildOnce(folder: string, build: () => void): void {
  const lock = `${folder}.lock`;
  const deadline = Date.now() + WAIT_LIMIT_MS;
  while (!isBuilt(folder)) {
    if (takeLock(lock)) {
      try {
        if (!isBuilt(folder)) {
          build();
          writeFileSync(join(folder, DONE_FILE), '');
        }
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
      return;
    }
    if (holderEnded(lock)) throw new Error(`the process building ${folder} ended before it finished`);
    if (Date.now() > deadline) throw new Error(`no build in ${folder} after ${WAIT_LIMIT_MS} ms`);
    sleepSync(POLL_MS);
  }
}

function isBuilt(folder: string): boolean {
  return existsSync(join(folder, DONE_FILE));
}

/** mkdir is atomic: exactly one process creates the lock folder. */
function takeLock(lock: string): boolean {
  mkdirSync(dirname(lock), { recursive: true });
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeFileSync(join(lock, 'pid'), String(process.pid));
  return true;
}

/** Whether the lock's holder is gone without releasing it (a worker killed mid-build). */
function holderEnded(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    // Released since, or taken an instant ago and its pid not written yet: either way, look again.
    return false;
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' && existsSync(lock);
  }
}

/** The build step is synchronous (spawnSync), so its waiters are too. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
