// --busy-cores: one busy loop at the lowest priority pinned to each core for the whole run. On this
// VM a one-connection A/B also measures where the kernel placed the processes a request wakes (the
// upstream, the client): on an idle core that wake-up goes through the hypervisor and costs the writer
// twice as much kernel time, on a busy one it is a cheap local queueing. With every core busy the
// woken process always goes to its waker's core, so both builds are measured under the same placement
// (docs/performance-analysis.md, "One connection: the kernel's wake-ups"). A nice-19 loop takes
// about 1.5 % of a core from a process at nice 0, and none of its CPU is charged to the target.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The process group of the loops in every target's groups: accounted for, never a target's context. */
export const BUSY_LOOPS_GROUP = 'busy loops';

/** Whether a target's process group is its context (what it needs), reported per request beside it. */
export const isContextGroup = (name) => name !== 'main' && name !== BUSY_LOOPS_GROUP;

const LOOP = 'while :; do :; done';

/** Starts the loops (taskset and nice exec in turn, so each loop keeps the pid spawn gave it). */
export function startBusyCores(cores = availableParallelism()) {
  const loops = [];
  for (let core = 0; core < cores; core += 1) {
    const args = ['-c', String(core), 'nice', '-n', '19', 'sh', '-c', LOOP];
    loops.push(spawn('taskset', args, { stdio: 'ignore' }));
  }
  return {
    pids: loops.map((loop) => loop.pid),
    stop: () => Promise.all(loops.map(stopLoop)),
  };
}

function stopLoop(loop) {
  return new Promise((resolve) => {
    if (loop.exitCode !== null || loop.signalCode !== null) return resolve();
    loop.once('exit', () => resolve());
    loop.kill('SIGKILL');
  });
}
