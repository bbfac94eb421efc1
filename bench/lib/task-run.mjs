// The video task scenario's run: `count` creations through POST /v1/videos at `connections` (wrk, ended
// after `count` answers), then the wait until worker-video has driven every task to its end (the simulator
// completes each `completionMs` after its upstream create), framed by /proc, pg_stat_database and
// simulator readings; then the task rows and the simulator's completion times give the lags.
//
// Phases: creation (from the first request to the last answer), with worker-video's queue paused, as
// the insert-and-enqueue floor's jobs have no consumer either: on a machine of few cores the worker's
// submissions and the simulator would otherwise share the cores with the creations being measured;
// polling (from the queue's resumption until no step job is left); and, inside polling, the steady
// window that the per-poll figures use: it starts STATISTICS_FLUSH_MS after the last upstream create,
// once pg_stat_database shows everything the creations and submissions did.
// runTaskCreations is the creation phase alone, for the plain insert-and-enqueue whose tasks nobody polls.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { databaseUrlFor, redisUrl } from './gateway-state.mjs';
import { isContextGroup } from './busy-cores.mjs';
import { diffSnapshots, otherCores, readResidentBytes, takeSnapshot } from './proc-stats.mjs';
import { NOISY_OTHER_CORES } from './runner.mjs';
import { requestPath } from './scenarios.mjs';
import {
  countStatuses,
  databaseDelta,
  perUnit,
  routeDelta,
  STATISTICS_FLUSH_MS,
  summariseLags,
  taskLagSamples,
} from './task-figures.mjs';
import { runWrk } from './wrk.mjs';

const DRAIN_CHECK_MS = 500;
const VIDEO_QUEUE = 'video-tasks';
/**
 * Step jobs of a BullMQ queue not finished yet, in every list and set where BullMQ keeps them (KEYS);
 * the queue's repeatable sweeps (ids `repeat:…`) always have a next run waiting and do not count.
 */
const LIVE_STEP_JOBS_SCRIPT = `
local live = 0
for _, key in ipairs(KEYS) do
  local kind = redis.call('TYPE', key).ok
  local ids = {}
  if kind == 'list' then ids = redis.call('LRANGE', key, 0, -1)
  elseif kind == 'zset' then ids = redis.call('ZRANGE', key, 0, -1) end
  for _, id in ipairs(ids) do
    if string.sub(id, 1, 7) ~= 'repeat:' then live = live + 1 end
  end
end
return live`;
const LIVE_JOB_KEYS = ['wait', 'active', 'paused', 'delayed', 'prioritized', 'waiting-children'];
const UPSTREAM_CREATE = 'compat:videoCreate';
const UPSTREAM_RETRIEVE = 'compat:videoRetrieve';
const MIB = 1024 * 1024;

/** worker-video's poll delay at a task's age, with the stack's timing (the rule of the build in `dist`). */
function platformPollDelay(dist, env) {
  const require = createRequire(import.meta.url);
  const tasks = join(dist, 'libs', 'tasks', 'src');
  const { nextPollDelayMs } = require(join(tasks, 'task', 'poll-delay.util.js'));
  const { readTaskStepTiming } = require(join(tasks, 'runtime', 'task-step-worker.settings.js'));
  const timing = readTaskStepTiming(env);
  const task = { createdAt: new Date(0), deadlineAt: new Date(8.64e15) };
  return (ageMs) => nextPollDelayMs(task, ageMs, timing);
}

async function simulatorJson(simulatorUrl, path) {
  const response = await fetch(`${simulatorUrl}${path}`);
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return response.json();
}

async function databaseStats(client, database) {
  const { rows } = await client.query(
    `SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted
       FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  if (rows.length === 0) throw new Error(`no pg_stat_database row for ${database}`);
  return rows[0];
}

async function liveStepJobs(redis, prefix) {
  const keys = LIVE_JOB_KEYS.map((name) => `${prefix}:${VIDEO_QUEUE}:${name}`);
  return Number(await redis.eval(LIVE_STEP_JOBS_SCRIPT, keys.length, ...keys));
}

/** The scenario's task rows: those created since `sinceMs` (Prisma stores UTC). */
async function taskRows(database, sinceMs) {
  const client = new pg.Client({ connectionString: databaseUrlFor(database) });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT id, status, failure_reason,
              (extract(epoch FROM created_at) * 1000)::float8 AS created_ms,
              (extract(epoch FROM completed_at) * 1000)::float8 AS completed_ms,
              upstream_handle->>'videoId' AS video_id
         FROM tasks
        WHERE kind = 'video' AND created_at >= to_timestamp($1 / 1000.0) AT TIME ZONE 'UTC'`,
      [sinceMs],
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      failureReason: row.failure_reason,
      createdMs: row.created_ms,
      completedMs: row.completed_ms,
      videoId: row.video_id,
    }));
  } finally {
    await client.end();
  }
}

function cpuOf(diff, groups) {
  return {
    microseconds: Object.fromEntries(
      Object.keys(groups).map((name) => [name, diff.groupsMicroseconds[name] ?? 0]),
    ),
    wallUs: diff.wallMicroseconds,
    otherCores: otherCores(diff, Object.keys(groups)),
  };
}

/**
 * Waits until no step job is left (true) or `deadlineMs` (false); calls `atWindowStart` once, the
 * first time `windowMayStart` says so, and `atQuietEnd` once the window started, just before
 * `quietUntilMs` (when no task can have completed upstream yet), if that is still ahead.
 */
async function waitForDrain(
  redis,
  prefix,
  { windowMayStart, deadlineMs, atWindowStart, quietUntilMs, atQuietEnd },
) {
  let windowStarted = false;
  let quietEnded = false;
  while (Date.now() < deadlineMs) {
    if ((await liveStepJobs(redis, prefix)) === 0) return true;
    if (!windowStarted && (await windowMayStart())) {
      windowStarted = true;
      await atWindowStart();
    }
    if (windowStarted && !quietEnded && Date.now() + 2 * DRAIN_CHECK_MS >= quietUntilMs) {
      quietEnded = true;
      if (Date.now() < quietUntilMs) await atQuietEnd();
    }
    await sleep(DRAIN_CHECK_MS);
  }
  return false;
}

/** True from STATISTICS_FLUSH_MS after the simulator has seen `count` upstream creates since `since`. */
function afterLastSubmission(simulatorUrl, since, count) {
  let submittedAtMs;
  return async () => {
    if (submittedAtMs === undefined) {
      const stats = await simulatorJson(simulatorUrl, '/__sim/stats');
      if (routeDelta(since, stats, UPSTREAM_CREATE) >= count) submittedAtMs = Date.now();
    }
    return submittedAtMs !== undefined && Date.now() >= submittedAtMs + STATISTICS_FLUSH_MS;
  };
}

/** Per-poll figures of the steady window: null when every task ended before it began. */
function steadyWindowFigures(window, end, endDatabase, groups) {
  if (!window) return null;
  const diff = diffSnapshots(window.proc, end.proc);
  const polls = routeDelta(window.simulator, end.simulator, UPSTREAM_RETRIEVE);
  const database = databaseDelta(window.database, endDatabase);
  return {
    seconds: diff.wallMicroseconds / 1e6,
    polls,
    upstreamCreates: routeDelta(window.simulator, end.simulator, UPSTREAM_CREATE),
    workerUsPerPoll: perUnit(diff.groupsMicroseconds['worker-video'], polls),
    postgresUsPerPoll: perUnit(diff.groupsMicroseconds.postgres ?? 0, polls),
    database,
    databasePerPoll: perUnit(database, polls),
    cpu: cpuOf(diff, groups),
  };
}

/** The creation load: `count` creations at `connections`, wrk ended after that many answers. */
function createTasks({ target, family, connections, bodyFile, count }) {
  return runWrk({
    url: `${target.baseUrl}${requestPath(family, false)}`,
    connections,
    // A bound only: the run ends after `count` answers.
    durationSeconds: Math.max(30, Math.ceil(count / 50)),
    bodyFile,
    headers: target.families[family],
    maxRequests: count,
  });
}

/** The creation phase's run record (the wrk runs' shape) from its load and its /proc readings. */
function creationRecord({ load, before, after, groups, mainPid }) {
  const diff = diffSnapshots(before, after);
  const targetUs = diff.groupsMicroseconds.main;
  const others = otherCores(diff, Object.keys(groups));
  const creationSeconds = (load.stoppedAfterUs ?? load.durationUs) / 1e6;
  return {
    requests: load.requests,
    rps: load.requests / creationSeconds,
    latencyUs: load.latencyUs,
    errors: load.errors,
    wrkArgs: load.args,
    wrkReport: load.report,
    cpu: {
      targetUs,
      targetUsPerRequest: perUnit(targetUs, load.requests),
      contextUsPerRequest: Object.fromEntries(
        Object.keys(groups)
          .filter(isContextGroup)
          .map((name) => [name, perUnit(diff.groupsMicroseconds[name] ?? 0, load.requests)]),
      ),
      wallUs: diff.wallMicroseconds,
      otherCores: others,
    },
    rssMiB: { main: readResidentBytes(mainPid) / MIB },
    noisy: others > NOISY_OTHER_CORES,
    // Monotonic microseconds, the clock of CPU profiles: --profile cuts the gateway's to the creations.
    windowUs: { startUs: Number(before.at / 1000n), endUs: Number(after.at / 1000n) },
    creationSeconds,
  };
}

/**
 * The creation phase alone, framed by /proc: for a target whose tasks nobody polls (the plain
 * insert-and-enqueue). Resolves with a run record shaped like the wrk runs'.
 */
export async function runTaskCreations({ target, family, connections, bodyFile, count }) {
  const before = takeSnapshot(target.groups);
  const load = await createTasks({ target, family, connections, bodyFile, count });
  const after = takeSnapshot(target.groups);
  return creationRecord({ load, before, after, groups: target.groups, mainPid: target.mainPid });
}

/**
 * target.tasks: { simulatorUrl, dist, database, redisPrefix, env, workerPids } (every worker-video process). Resolves with a run record
 * shaped like the wrk runs' (requests, rps, latencyUs, errors, cpu, rssMiB, noisy) plus `tasks`.
 */
export async function runTaskLoad({ target, family, connections, bodyFile, count, completionMs, log }) {
  const { simulatorUrl, dist, database, redisPrefix, env, workerPids } = target.tasks;
  const pollDelayMs = platformPollDelay(dist, env);
  const groups = {
    ...target.groups,
    workers: target.groups.workers.filter((pid) => !workerPids.includes(pid)),
    'worker-video': workerPids,
  };
  const redis = new Redis(redisUrl(), { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const videoQueue = new Queue(VIDEO_QUEUE, { connection: { url: redisUrl() }, prefix: redisPrefix });
  const statsClient = new pg.Client({ connectionString: databaseUrlFor('postgres') });
  await statsClient.connect();
  const reading = async () => ({
    proc: takeSnapshot(groups),
    database: await databaseStats(statsClient, database),
    simulator: await simulatorJson(simulatorUrl, '/__sim/stats'),
  });
  try {
    // What ran before (the check request, earlier scenarios) must have reached pg_stat_database.
    await sleep(STATISTICS_FLUSH_MS);
    const startMs = Date.now();
    await videoQueue.pause();
    const start = await reading();
    const load = await createTasks({ target, family, connections, bodyFile, count });
    const created = await reading();
    await videoQueue.resume();
    log(`tasks: ${load.requests} creations answered, waiting for worker-video to end them`);
    let window = null;
    let quietEnd = null;
    // No upstream create comes before the queue's resumption, so no task completes upstream before this:
    // from the window's start to here every poll finds nothing new but progress (the quiet window).
    const quietUntilMs = Date.now() + completionMs;
    const drained = await waitForDrain(redis, redisPrefix, {
      windowMayStart: afterLastSubmission(simulatorUrl, created.simulator, load.requests),
      deadlineMs: Date.now() + completionMs * 2 + 120_000,
      atWindowStart: async () => {
        window = await reading();
      },
      quietUntilMs,
      atQuietEnd: async () => {
        quietEnd = await reading();
      },
    });
    const ended = {
      proc: takeSnapshot(groups),
      simulator: await simulatorJson(simulatorUrl, '/__sim/stats'),
      workerRssMiB: workerPids.reduce((sum, pid) => sum + readResidentBytes(pid), 0) / MIB,
    };
    await sleep(STATISTICS_FLUSH_MS);
    const endDatabase = await databaseStats(statsClient, database);
    const rows = await taskRows(database, startMs);
    const completions = await simulatorJson(simulatorUrl, '/__sim/videos/completions');

    const creationDiff = diffSnapshots(start.proc, created.proc);
    const creationRun = creationRecord({
      load,
      before: start.proc,
      after: created.proc,
      groups,
      mainPid: target.mainPid,
    });
    const pollingDiff = diffSnapshots(created.proc, ended.proc);
    const wholeDiff = diffSnapshots(start.proc, ended.proc);
    const statuses = countStatuses(rows);
    const polls = routeDelta(created.simulator, ended.simulator, UPSTREAM_RETRIEVE);
    const { samples, unmatched } = taskLagSamples(rows, completions, pollDelayMs);
    const tasks = {
      count,
      completionMs,
      drained,
      statuses,
      failureReasons: [...new Set(rows.map((row) => row.failureReason).filter(Boolean))].slice(0, 5),
      creation: {
        seconds: creationRun.creationSeconds,
        ratePerSecond: creationRun.rps,
        upstreamCreates: routeDelta(start.simulator, created.simulator, UPSTREAM_CREATE),
        cpu: cpuOf(creationDiff, groups),
      },
      polling: {
        seconds: pollingDiff.wallMicroseconds / 1e6,
        polls,
        pollsPerTask: perUnit(polls, statuses.total),
        upstreamCreates: routeDelta(created.simulator, ended.simulator, UPSTREAM_CREATE),
        workerRssMiB: ended.workerRssMiB,
        cpu: cpuOf(pollingDiff, groups),
      },
      steady: steadyWindowFigures(window, ended, endDatabase, groups),
      // The part of the steady window before any upstream completion (a run with a long completionMs
      // has one): polls alone, no settlement. Its closing database reading is not delayed (busy
      // backends report within about a second).
      quiet: quietEnd ? steadyWindowFigures(window, quietEnd, quietEnd.database, groups) : null,
      // From before the first creation to after the last task ended: exact totals, per task.
      perTask: {
        workerUs: perUnit(wholeDiff.groupsMicroseconds['worker-video'], statuses.total),
        gatewayUs: perUnit(wholeDiff.groupsMicroseconds.main, statuses.total),
        database: perUnit(databaseDelta(start.database, endDatabase), statuses.total),
      },
      lags: { ...summariseLags(samples), unmatched },
    };
    const problem = unfinishedProblem(tasks);
    return {
      ...creationRun,
      rssMiB: { main: readResidentBytes(target.mainPid) / MIB, workers: ended.workerRssMiB },
      noisy: creationRun.noisy || tasks.polling.cpu.otherCores > NOISY_OTHER_CORES,
      tasks,
      ...(problem ? { failure: problem } : {}),
    };
  } finally {
    await videoQueue.resume();
    await videoQueue.close();
    redis.disconnect();
    await statsClient.end();
  }
}

/** Why the run does not count as a success: a task that did not complete, or a lag not measured. */
function unfinishedProblem(tasks) {
  const completed = tasks.statuses.byStatus.completed ?? 0;
  if (!tasks.drained) return `worker-video did not end the tasks in time (${completed} completed)`;
  if (completed < tasks.statuses.total) {
    const reasons = tasks.failureReasons.length > 0 ? `: ${tasks.failureReasons.join('; ')}` : '';
    return `${tasks.statuses.total - completed} of ${tasks.statuses.total} tasks did not complete${reasons}`;
  }
  if (tasks.lags.unmatched > 0) return `${tasks.lags.unmatched} completed tasks unknown to the simulator`;
  return null;
}
