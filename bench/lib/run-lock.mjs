// One harness run at a time (the benchmark or the fault script): each rebuilds dist/ and starts the
// processes from it, so a second run would replace the code under the first one's processes.
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Takes bench/results/.lock for this process (a lock left by a dead run is taken over) and frees it on
 * exit; exits with a message when a live run holds it.
 */
export function takeRunLock(root) {
  const lockPath = join(root, 'bench', 'results', '.lock');
  mkdirSync(dirname(lockPath), { recursive: true });
  try {
    writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(readFileSync(lockPath, 'utf8'));
    if (holder && isRunning(holder)) {
      console.error(
        `another benchmark or chaos run (pid ${holder}) owns dist/ and the harness databases; wait for it`,
      );
      process.exit(1);
    }
    writeFileSync(lockPath, String(process.pid));
  }
  process.on('exit', () => {
    if (existsSync(lockPath) && readFileSync(lockPath, 'utf8') === String(process.pid)) unlinkSync(lockPath);
  });
}
