import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBusyCores } from './busy-cores.mjs';
import { parseProcessStat, readOrNull } from './proc-stats.mjs';

/** The loop once taskset and nice have exec'd into it: its niceness and the cores it may run on. */
async function loopOf(pid) {
  for (let tries = 0; tries < 100; tries += 1) {
    const stat = readOrNull(`/proc/${pid}/stat`);
    const status = readOrNull(`/proc/${pid}/status`);
    const loop = stat && parseProcessStat(stat);
    if (loop?.name === 'sh' && status) {
      return { nice: loop.nice, cores: /^Cpus_allowed_list:\s+(\S+)/m.exec(status)?.[1] };
    }
    await sleep(20);
  }
  throw new Error(`process ${pid} never became the loop`);
}

test('one lowest-priority loop per core, each pinned to its core, all gone once stopped', async () => {
  const cores = Math.min(2, availableParallelism());
  const busy = startBusyCores(cores);
  try {
    assert.equal(busy.pids.length, cores);
    for (const [core, pid] of busy.pids.entries()) {
      assert.deepEqual(await loopOf(pid), { nice: 19, cores: String(core) });
    }
  } finally {
    await busy.stop();
  }
  for (const pid of busy.pids) assert.equal(readOrNull(`/proc/${pid}/stat`), null);
});
