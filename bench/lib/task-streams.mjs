// Scenario 11 (`task-streams`): what open `GET /v1/tasks/{id}/events` streams cost one gateway process.
// On the stack's database it writes running tasks of the stack's account, then samples the gateway's
// RSS and CPU (/proc) and the database's transactions (pg_stat_database) once a second in three phases:
// without streams (what the stack's workers and sweeps cost meanwhile), with the streams open and idle
// (heartbeats only), and while task progress flows (each update is one event the trigger records, which
// the gateway's one feed reads and fans out to that task's streams). The tasks are removed at the end.
import { randomBytes } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import pg from 'pg';
import { databaseUrlFor } from './gateway-state.mjs';
import { readProcessTicks, readResidentBytes } from './proc-stats.mjs';
import { STATISTICS_FLUSH_MS } from './task-figures.mjs';
import { eventCounter, phaseSample, taskStreamFigures } from './task-stream-figures.mjs';

/** Streams opened at once: a thousand connects in one burst would measure the accept queue instead. */
export const OPEN_BATCH = 50;
/** A stream that has not sent its first event by then counts as failed to open. */
const FIRST_EVENT_TIMEOUT_MS = 30_000;
const TASKS_PER_UPDATE = 10;
/**
 * Each update is announced on the task-changes channel as the workers announce theirs, so the feed
 * reads it at once (its fallback poll, 5 s, would be late for the last updates): the drain only
 * covers the delivery of the last second's events.
 */
const DELIVERY_DRAIN_MS = 1_500;

/**
 * Opens `count` streams, task i % tasks for stream i, OPEN_BATCH at a time, each counted open at its
 * first event. Resolves once every stream has opened or failed; `close()` ends them all.
 */
export async function openTaskStreams({
  baseUrl,
  headers,
  taskIds,
  count,
  firstEventTimeoutMs = FIRST_EVENT_TIMEOUT_MS,
}) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const requests = [];
  const openByTask = new Map();
  const state = { opened: 0, failed: 0, endedEarly: 0, events: 0, firstFailure: null, closing: false };
  const openOne = (taskId) =>
    new Promise((resolve) => {
      let settled = false;
      let opened = false;
      let timer = null;
      const settle = (failure) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (failure) {
          state.failed += 1;
          state.firstFailure ??= failure;
        } else {
          opened = true;
          state.opened += 1;
          openByTask.set(taskId, (openByTask.get(taskId) ?? 0) + 1);
        }
        resolve();
      };
      const request = httpRequest(`${baseUrl}/v1/tasks/${taskId}/events`, {
        agent,
        headers: { ...headers, accept: 'text/event-stream' },
      });
      requests.push(request);
      timer = setTimeout(() => {
        settle(`no first event within ${firstEventTimeoutMs / 1000} s`);
        request.destroy();
      }, firstEventTimeoutMs);
      request.once('response', (response) => {
        response.setEncoding('utf8');
        response.on('error', () => {});
        if (response.statusCode !== 200) {
          let text = '';
          response.on('data', (chunk) => (text += chunk));
          response.once('end', () => settle(`status ${response.statusCode}: ${text.slice(0, 200)}`));
          return;
        }
        const countEvents = eventCounter();
        response.on('data', (chunk) => {
          const found = countEvents(chunk);
          state.events += found;
          if (found > 0) settle(null);
        });
        response.once('close', () => {
          if (!settled) settle('the stream ended before its first event');
          else if (opened && !state.closing) state.endedEarly += 1;
        });
      });
      request.once('error', (error) => settle(`request failed: ${error.message}`));
      request.end();
    });
  for (let start = 0; start < count; start += OPEN_BATCH) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + OPEN_BATCH); index += 1)
      batch.push(openOne(taskIds[index % taskIds.length]));
    await Promise.all(batch);
  }
  return {
    opened: () => state.opened,
    failed: () => state.failed,
    firstFailure: () => state.firstFailure,
    endedEarly: () => state.endedEarly,
    events: () => state.events,
    /** Open streams that follow `taskId`: how many events one change of it should deliver. */
    followers: (taskId) => openByTask.get(taskId) ?? 0,
    close: () => {
      state.closing = true;
      for (const request of requests) request.destroy();
      agent.destroy();
    },
  };
}

/**
 * `seconds` samples, one a second, of process `pid` and of `readTransactions()`; `act(second)` runs at
 * the start of each second and is awaited before its sample is taken.
 */
export async function samplePhase({ pid, seconds, readTransactions, act = async () => {} }) {
  const reading = async () => ({
    atMs: Date.now(),
    ticks: readProcessTicks(pid),
    rssBytes: readResidentBytes(pid),
    transactions: await readTransactions(),
  });
  const samples = [];
  let previous = await reading();
  for (let second = 0; second < seconds; second += 1) {
    const acting = act(second);
    await sleep(Math.max(0, previous.atMs + 1000 - Date.now()));
    await acting;
    const current = await reading();
    samples.push(phaseSample(previous, current));
    previous = current;
  }
  return samples;
}

/** Committed and rolled-back transactions of the client's database, as pg_stat_database has them. */
async function databaseTransactions(client) {
  // Statistics reach pg_stat_database up to a second late: a tendency per second, exact over a phase.
  const { rows } = await client.query(
    'SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0].n);
}

/**
 * Running music tasks of `accountId` with no upstream and no step job. Their updated_at lies ahead so
 * that the stack's stranded-task sweep (a step job for an open task unwritten for 2 min) never steps
 * one: the step would fail it and end its streams.
 */
async function insertRunningTasks(client, accountId, count) {
  const { rows } = await client.query('SELECT id FROM api_keys WHERE account_id = $1 ORDER BY id LIMIT 1', [
    accountId,
  ]);
  if (rows.length === 0) throw new Error(`account ${accountId} has no key to own the tasks`);
  const ids = Array.from(
    { length: count },
    () => `music_${randomBytes(16).toString('base64url').slice(0, 22)}`,
  );
  await client.query(
    `INSERT INTO tasks (id, kind, key_id, account_id, model, status, progress, request, deadline_at, updated_at)
     SELECT id, 'music', $2, $3, 'lambda-v3-0', 'processing', 1, '{}', now() + interval '1 hour', now() + interval '1 day'
       FROM unnest($1::text[]) AS id`,
    [ids, rows[0].id, accountId],
  );
  return ids;
}

/**
 * Each second: `perSecond` progress updates, round-robin over the tasks, in statements of
 * TASKS_PER_UPDATE spread over the first half of the second. Counts the updates per task.
 */
function progressWriter(client, announce, taskIds, perSecond) {
  const updatesByTask = new Map();
  let next = 0;
  const act = async () => {
    const ids = Array.from({ length: perSecond }, (_, index) => taskIds[(next + index) % taskIds.length]);
    next += perSecond;
    const statements = Math.ceil(ids.length / TASKS_PER_UPDATE);
    for (let start = 0; start < ids.length; start += TASKS_PER_UPDATE) {
      const batch = ids.slice(start, start + TASKS_PER_UPDATE);
      await client.query('UPDATE tasks SET progress = (progress + 1) % 100 WHERE id = ANY($1)', [batch]);
      await announce(batch);
      for (const id of batch) updatesByTask.set(id, (updatesByTask.get(id) ?? 0) + 1);
      await sleep(1000 / statements / 2);
    }
  };
  return { act, updatesByTask };
}

/**
 * One run of the scenario on a gateway target of the stack (its `tasks` names the database and the
 * account). Returns the run's record: streams asked for as requests, those that did not open as errors.
 */
export async function measureTaskStreams({
  target,
  headers,
  streams,
  tasks,
  phaseSeconds,
  updatesPerSecond,
  log,
  settleMs = STATISTICS_FLUSH_MS,
}) {
  const client = new pg.Client({ connectionString: databaseUrlFor(target.tasks.database) });
  await client.connect();
  // libs/tasks' task-change announcement: `<REDIS_PREFIX>:tasks:changes`, a JSON array of task ids.
  const publisher = new Redis(target.tasks.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const channel = `${target.tasks.env.REDIS_PREFIX ?? target.tasks.redisPrefix}:tasks:changes`;
  const announce = (taskIds) => publisher.publish(channel, JSON.stringify(taskIds));
  let opened = null;
  let taskIds = [];
  try {
    taskIds = await insertRunningTasks(client, target.tasks.accountId, tasks);
    const sample = (act) =>
      samplePhase({
        pid: target.mainPid,
        seconds: phaseSeconds,
        readTransactions: () => databaseTransactions(client),
        act,
      });
    // An idle backend reports its last second of statistics up to 10 s late: each phase waits for what
    // ran before it (the inserts, the openings) to have reached pg_stat_database.
    log(`task-streams: ${tasks} running tasks written; ${phaseSeconds} s without streams`);
    await sleep(settleMs);
    const withoutStreams = await sample();
    const openingStarted = Date.now();
    opened = await openTaskStreams({ baseUrl: target.baseUrl, headers, taskIds, count: streams });
    const openMs = Date.now() - openingStarted;
    log(`task-streams: ${opened.opened()}/${streams} streams open; ${phaseSeconds} s idle, then progress`);
    await sleep(settleMs);
    const idle = await sample();
    const eventsBefore = opened.events();
    const writer = progressWriter(client, announce, taskIds, updatesPerSecond);
    const flow = await sample(writer.act);
    await sleep(DELIVERY_DRAIN_MS);
    const expected = [...writer.updatesByTask].reduce(
      (sum, [taskId, updates]) => sum + updates * opened.followers(taskId),
      0,
    );
    const figures = taskStreamFigures({
      settings: { streams, tasks, updatesPerSecond, tasksPerUpdate: TASKS_PER_UPDATE, openBatch: OPEN_BATCH },
      opening: {
        opened: opened.opened(),
        failed: opened.failed(),
        firstFailure: opened.firstFailure(),
        endedEarly: opened.endedEarly(),
        openMs,
      },
      samples: { withoutStreams, idle, flow },
      events: { delivered: opened.events() - eventsBefore, expected },
    });
    return {
      requests: streams,
      errors: { total: opened.failed(), firstFailure: opened.firstFailure() },
      taskStreams: figures,
    };
  } finally {
    opened?.close();
    if (taskIds.length > 0) await client.query('DELETE FROM tasks WHERE id = ANY($1)', [taskIds]);
    await client.end();
    publisher.disconnect();
  }
}
