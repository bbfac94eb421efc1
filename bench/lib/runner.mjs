// One measured run: the load (wrk, the time-to-first-byte client or the open-streams client) against one
// target, framed by /proc snapshots of the target's processes, the load generator and the machine.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { isContextGroup } from './busy-cores.mjs';
import { diffSnapshots, otherCores, readResidentBytes, takeSnapshot } from './proc-stats.mjs';
import { waitUntilQuiet } from './quiet-wait.mjs';
import { answerProblem, requestPath } from './scenarios.mjs';
import { runWrk } from './wrk.mjs';

const LIB_DIR = dirname(fileURLToPath(import.meta.url));
/** Rounds where the rest of the machine used more than this many cores are marked noisy. */
export const NOISY_OTHER_CORES = 1 / 3;
const MIB = 1024 * 1024;

/** One request through the target, checked like the runs will be: a target that fails it is not measured. */
export async function preflight(target, family, { body, stream }) {
  try {
    const answer = await request(`${target.baseUrl}${requestPath(family, stream)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.families[family] },
      body,
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    return answerProblem(family, stream, answer.statusCode, await answer.body.text());
  } catch (error) {
    return `request failed: ${error.message}`;
  }
}

function residentMiB(pids) {
  return pids.reduce((sum, pid) => sum + readResidentBytes(pid), 0) / MIB;
}

/** Frames `work` with CPU snapshots; `work` resolves with at least { requests }. */
async function measured(target, work, { settleMs }) {
  await target.callgrind?.start();
  const before = takeSnapshot(target.groups);
  const loadStartUs = Number(before.at / 1000n);
  const outcome = await work();
  const loadEndUs = Number(process.hrtime.bigint() / 1000n);
  // Work a target defers until after the answer (settlement, log batches) belongs to the run: the
  // settle time, then for as long as its processes are still busy with it (bench/lib/quiet-wait.mjs).
  await sleep(settleMs);
  // Instructions stay counted over the load and the settle time only, as before the wait existed:
  // under callgrind an idle stack runs many times slower, and the wait would count its timers too.
  const instructions = await target.callgrind?.stop(`run-${loadStartUs}`);
  const settled = await waitUntilQuiet(target.groups, takeSnapshot(target.groups));
  const after = settled.snapshot;
  const diff = diffSnapshots(before, after);
  const groupNames = Object.keys(target.groups);
  const perRequest = (microseconds) => (outcome.requests > 0 ? microseconds / outcome.requests : null);
  const contextUsPerRequest = {};
  for (const name of groupNames) {
    if (isContextGroup(name)) contextUsPerRequest[name] = perRequest(diff.groupsMicroseconds[name]);
  }
  const others = otherCores(diff, groupNames);
  return {
    ...outcome,
    ...(instructions === undefined
      ? {}
      : { instructions: { total: instructions, perRequest: perRequest(instructions) } }),
    cpu: {
      targetUs: diff.groupsMicroseconds.main,
      targetUsPerRequest: perRequest(diff.groupsMicroseconds.main),
      // The kernel's part (system calls, and the wake-ups of the processes it sends to): see
      // docs/performance-analysis.md on why it moves at one connection.
      targetSystemUsPerRequest: perRequest(diff.groupsSystemMicroseconds.main),
      contextUsPerRequest,
      loadGeneratorUs: diff.loadGeneratorMicroseconds,
      harnessUs: diff.harnessMicroseconds,
      machineBusyUs: diff.machineBusyMicroseconds,
      wallUs: diff.wallMicroseconds,
      otherCores: others,
    },
    rssMiB: {
      main: residentMiB([target.mainPid]),
      ...(target.groups.workers ? { workers: residentMiB(target.groups.workers) } : {}),
    },
    noisy: others > NOISY_OTHER_CORES,
    // How long the target stayed busy after its load (beyond the settle time), and whether it ended.
    drain: { busyMs: settled.busyMs, quiet: settled.quiet },
    // Monotonic microseconds, the clock of CPU profiles: lets a profile be cut to the load.
    windowUs: { startUs: loadStartUs, endUs: loadEndUs },
  };
}

export async function runWrkScenario({
  target,
  family,
  connections,
  durationSeconds,
  bodyFile,
  stream,
  settleMs,
}) {
  return measured(
    target,
    async () => {
      const result = await runWrk({
        url: `${target.baseUrl}${requestPath(family, stream)}`,
        connections,
        durationSeconds,
        bodyFile,
        headers: target.families[family],
      });
      return {
        requests: result.requests,
        rps: result.rps,
        latencyUs: result.latencyUs,
        errors: result.errors,
        wrkArgs: result.args,
        wrkReport: result.report,
      };
    },
    { settleMs },
  );
}

/** Runs a client script of bench/lib as a child; resolves with its last JSON line, passes every line on. */
function runClient(script, config, onLine = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(LIB_DIR, script), JSON.stringify(config)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let pending = '';
    let last = null;
    let errorOutput = '';
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines.filter(Boolean)) {
        last = JSON.parse(line);
        onLine(last);
      }
    });
    child.stderr.on('data', (chunk) => (errorOutput += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 || !last) reject(new Error(`${script} exited with ${code}: ${errorOutput.trim()}`));
      else resolve(last);
    });
  });
}

export async function runTimeToFirstByte({ target, family, body, count, warmup, settleMs }) {
  return measured(
    target,
    async () => {
      const result = await runClient('ttfb-client.mjs', {
        url: `${target.baseUrl}${requestPath(family, true)}`,
        headers: target.families[family],
        body,
        count,
        warmup,
      });
      return {
        requests: result.requests + warmup,
        latencyUs: result.ttfbUs,
        headersUs: result.headersUs,
        errors: { total: result.failures, firstFailure: result.firstFailure },
      };
    },
    { settleMs },
  );
}

/** Opens the streams and samples the target's memory every 200 ms, and once when all are open. */
export async function runOpenStreams({ target, family, body, streams, endMarker, deadlineMs, settleMs }) {
  const memory = { peakMainMiB: 0, peakWorkersMiB: 0, mainAtAllOpenMiB: null };
  const sample = () => {
    const main = residentMiB([target.mainPid]);
    memory.peakMainMiB = Math.max(memory.peakMainMiB, main);
    if (target.groups.workers) {
      memory.peakWorkersMiB = Math.max(memory.peakWorkersMiB, residentMiB(target.groups.workers));
    }
    return main;
  };
  const sampler = setInterval(sample, 200);
  try {
    return await measured(
      target,
      async () => {
        const result = await runClient(
          'open-streams.mjs',
          {
            url: `${target.baseUrl}${requestPath(family, true)}`,
            headers: target.families[family],
            body,
            streams,
            endMarker,
            deadlineMs,
          },
          (line) => {
            if (line.event === 'all-open') memory.mainAtAllOpenMiB = sample();
          },
        );
        return {
          requests: result.streams,
          openStreams: result,
          memory,
          errors: { total: result.failed, firstFailure: result.firstError },
        };
      },
      { settleMs },
    );
  } finally {
    clearInterval(sampler);
  }
}
