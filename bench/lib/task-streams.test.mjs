import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { OPEN_BATCH, openTaskStreams, samplePhase } from './task-streams.mjs';

const KEY = 'bench-key';
const FIRST_EVENT = 'retry: 1000\n\nid: 1\nevent: progress\ndata: {"progress":1}\n\n';

/**
 * A stand-in for the gateway's events route, one behaviour per task id: `task_live_*` streams (its
 * first event after `firstEventDelayMs`), `task_busy` 429, `task_silent` headers and heartbeats but no
 * event, `task_empty` ends at once, `task_short` ends 50 ms after its first event.
 */
async function startEventServer({ firstEventDelayMs = 0 } = {}) {
  const streams = new Map();
  const seen = { requests: 0, openingNow: 0, mostOpeningAtOnce: 0, closedByClient: 0 };
  const server = createServer(async (request, response) => {
    seen.requests += 1;
    request.socket.once('close', () => (seen.closedByClient += 1));
    const taskId = request.url.match(/^\/v1\/tasks\/([^/]+)\/events$/)?.[1];
    if (request.headers.authorization !== `Bearer ${KEY}`) return response.writeHead(401).end();
    if (request.headers.accept !== 'text/event-stream') return response.writeHead(406).end();
    if (taskId === 'task_busy')
      return response.writeHead(429).end('{"error":{"message":"too many open streams"}}');
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    if (taskId === 'task_empty') return response.end();
    if (taskId === 'task_silent') return response.write(': keep-alive\n\n');
    seen.openingNow += 1;
    seen.mostOpeningAtOnce = Math.max(seen.mostOpeningAtOnce, seen.openingNow);
    await sleep(firstEventDelayMs);
    seen.openingNow -= 1;
    response.write(FIRST_EVENT);
    if (taskId === 'task_short') return setTimeout(() => response.end(), 50);
    streams.set(taskId, [...(streams.get(taskId) ?? []), response]);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}`,
    seen,
    /** One event to every open stream of `taskId`, split across two writes. */
    publish: (taskId, seq) => {
      for (const response of streams.get(taskId) ?? []) {
        response.write(`id: ${seq}\nev`);
        response.write(`ent: progress\ndata: {"progress":${seq}}\n\n`);
      }
    },
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const headers = { authorization: `Bearer ${KEY}` };

async function until(condition, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(10);
  }
}

test('streams open OPEN_BATCH at a time, each counted at its first event, and their events are counted', async () => {
  const server = await startEventServer({ firstEventDelayMs: 150 });
  const taskIds = ['task_live_a', 'task_live_b', 'task_live_c'];
  const streams = await openTaskStreams({ baseUrl: server.baseUrl, headers, taskIds, count: 120 });
  try {
    assert.equal(streams.opened(), 120);
    assert.equal(streams.failed(), 0);
    assert.equal(streams.firstFailure(), null);
    // Never more than a batch waits for its first event (all 120 at once without the batches).
    assert.ok(server.seen.mostOpeningAtOnce <= OPEN_BATCH, `${server.seen.mostOpeningAtOnce} at once`);
    assert.ok(server.seen.mostOpeningAtOnce > 1);
    // Stream i follows task i % 3: 40 each.
    assert.deepEqual(
      taskIds.map((taskId) => streams.followers(taskId)),
      [40, 40, 40],
    );
    assert.equal(streams.events(), 120);
    server.publish('task_live_a', 2);
    server.publish('task_live_b', 2);
    await until(() => streams.events() === 200);
    assert.equal(streams.endedEarly(), 0);
  } finally {
    streams.close();
    await until(() => server.seen.closedByClient === 120);
    assert.equal(streams.endedEarly(), 0, 'closing them is not ending early');
    server.stop();
  }
});

test('a refused, silent or empty stream fails to open; one the server ends later ended early', async () => {
  const server = await startEventServer();
  const taskIds = ['task_live_a', 'task_busy', 'task_silent', 'task_empty', 'task_short'];
  const streams = await openTaskStreams({
    baseUrl: server.baseUrl,
    headers,
    taskIds,
    count: 5,
    firstEventTimeoutMs: 300,
  });
  try {
    assert.equal(streams.opened(), 2);
    assert.equal(streams.failed(), 3);
    assert.equal(streams.followers('task_busy'), 0);
    assert.equal(streams.followers('task_short'), 1);
    await until(() => streams.endedEarly() === 1);
  } finally {
    streams.close();
    server.stop();
  }
});

test('the first failure says why: the status and body of a refusal, a missing first event', async () => {
  const server = await startEventServer();
  const refused = await openTaskStreams({
    baseUrl: server.baseUrl,
    headers,
    taskIds: ['task_busy'],
    count: 2,
  });
  assert.equal(refused.opened(), 0);
  assert.equal(refused.firstFailure(), 'status 429: {"error":{"message":"too many open streams"}}');
  const silent = await openTaskStreams({
    baseUrl: server.baseUrl,
    headers,
    taskIds: ['task_silent'],
    count: 1,
    firstEventTimeoutMs: 200,
  });
  assert.equal(silent.firstFailure(), 'no first event within 0.2 s');
  const wrongKey = await openTaskStreams({
    baseUrl: server.baseUrl,
    headers: { authorization: 'Bearer other' },
    taskIds: ['task_live_a'],
    count: 1,
  });
  assert.equal(wrongKey.firstFailure(), 'status 401: ');
  for (const streams of [refused, silent, wrongKey]) streams.close();
  server.stop();
  const gone = await openTaskStreams({
    baseUrl: server.baseUrl,
    headers,
    taskIds: ['task_live_a'],
    count: 1,
  });
  assert.match(gone.firstFailure(), /^request failed: .*ECONNREFUSED/);
});

test('a phase samples once a second after its act, with the CPU of the process and the rate of transactions', async () => {
  let transactions = 1000;
  const acted = [];
  const samples = await samplePhase({
    pid: process.pid,
    seconds: 2,
    readTransactions: async () => (transactions += 5),
    act: async (second) => {
      acted.push(second);
      if (second === 0) {
        // 200 ms of this process's own CPU, however long a loaded machine takes to give it.
        const spunFrom = process.cpuUsage();
        while (process.cpuUsage(spunFrom).user < 200_000);
      } else {
        await sleep(1500);
      }
    },
  });
  assert.deepEqual(acted, [0, 1]);
  assert.equal(samples.length, 2);
  // Five transactions between readings, one of them the sampler's: 4 over at least a second, then over
  // the 1.5 s the second act took.
  assert.ok(samples[0].databaseTransactionsPerSecond > 0 && samples[0].databaseTransactionsPerSecond <= 4);
  assert.ok(samples[1].databaseTransactionsPerSecond < 2.8, 'the second sample waited for its act');
  assert.ok(samples[0].cpuPercent >= 5, `200 ms of CPU shows: ${samples[0].cpuPercent} %`);
  assert.ok(samples[0].cpuPercent > samples[1].cpuPercent);
  assert.ok(samples[0].rssMiB > 10);
});

test('a phase stops when the process it samples is gone', async () => {
  await assert.rejects(
    samplePhase({ pid: 2 ** 22 + 1, seconds: 1, readTransactions: async () => 0 }),
    /gateway process is gone/,
  );
});
