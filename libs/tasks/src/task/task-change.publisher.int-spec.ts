import { randomBytes } from 'node:crypto';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { createTestDatabase, type TestDatabase, waitFor } from '@gateway/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { fromTaskChangesMessage, taskChangesChannel } from './task-change.announcement';
import { RedisTaskChangePublisher } from './task-change.publisher';
import { TaskStore, type NewTask } from './task-store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const quiet = { warn: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The writers' side of the progress streams' wake-up, on real Redis and Postgres: what a subscriber of
 * the channel receives when TaskStore writes, and how the publisher batches and waits.
 */
describe('task change announcements (Redis, Postgres)', () => {
  let database: TestDatabase;
  let pool: Pool;
  let prisma: PrismaClient;
  let publisherConnection: Redis;
  let subscriber: Redis;
  let prefix: string;
  let received: string[][];
  let sequence = 0;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = createPgPool(database.url, 4);
    prisma = createPrismaClient(pool);
    publisherConnection = new Redis(REDIS_URL);
    subscriber = new Redis(REDIS_URL);
    prefix = `announce-${randomBytes(4).toString('hex')}`;
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === taskChangesChannel(prefix)) received.push(fromTaskChangesMessage(message));
    });
    await subscriber.subscribe(taskChangesChannel(prefix));
  });
  beforeEach(() => {
    received = [];
  });
  afterAll(async () => {
    subscriber.disconnect();
    publisherConnection.disconnect();
    await prisma.$disconnect();
    await pool.end();
    await database.drop();
  });

  const publisher = () => new RedisTaskChangePublisher(() => publisherConnection, prefix, quiet);
  function newTask(): NewTask {
    sequence += 1;
    return {
      id: `video_announce_${sequence}`,
      kind: 'video',
      keyId: 'key_1',
      accountId: 'acct_1',
      model: 'delta-2',
      request: { prompt: 'a lighthouse' },
      deadlineAt: new Date(Date.now() + 60_000),
    };
  }

  it('announces the ids of one turn of the event loop in one message, each once', async () => {
    const announcer = publisher();
    for (const id of ['video_a', 'video_b', 'video_a', 'video_c']) announcer.announce(id);
    await waitFor(async () => received.length === 1, 5_000);
    announcer.announce('video_d');
    await waitFor(async () => received.length === 2, 5_000);
    expect(received).toEqual([['video_a', 'video_b', 'video_c'], ['video_d']]);
  });

  it('cuts a burst into messages of 500 ids', async () => {
    const announcer = publisher();
    const ids = Array.from({ length: 1_200 }, (_, index) => `video_burst_${index}`);
    for (const id of ids) announcer.announce(id);
    await waitFor(async () => received.length === 3, 5_000);
    expect(received.map((message) => message.length)).toEqual([500, 500, 200]);
    expect(received.flat()).toEqual(ids);
  });

  it('holds the ids while its connection is not ready, and sends them once it is', async () => {
    const lazy = new Redis(REDIS_URL, { lazyConnect: true });
    try {
      const announcer = new RedisTaskChangePublisher(() => lazy, prefix, quiet);
      announcer.announce('video_early');
      announcer.announce('video_early');
      await sleep(200);
      expect(received).toEqual([]);
      announcer.announce('video_later');
      await lazy.connect();
      await waitFor(async () => received.length === 1, 5_000);
      expect(received).toEqual([['video_early', 'video_later']]);
    } finally {
      lazy.disconnect();
    }
  });

  it('never throws into the writer when Redis cannot be reached', async () => {
    // Port 1: nothing listens; the client retries in the background.
    const unreachable = new Redis({ port: 1, host: '127.0.0.1', maxRetriesPerRequest: 1, lazyConnect: true });
    unreachable.on('error', () => undefined);
    try {
      const announcer = new RedisTaskChangePublisher(() => unreachable, prefix, quiet);
      void unreachable.connect().catch(() => undefined);
      for (let index = 0; index < 20_000; index += 1) announcer.announce(`video_${index}`);
      await sleep(300);
      expect(received).toEqual([]);
    } finally {
      unreachable.disconnect();
    }
  });

  it('is told by TaskStore of each won transition and stored progress, not of a lost one nor a creation', async () => {
    const store = new TaskStore(prisma, pool, publisher());
    const { task } = await store.create(newTask());
    expect(await store.transition(task.id, 'queued', 'processing')).toBe(true);
    await waitFor(async () => received.length === 1, 5_000);
    // Lost compare-and-swap: the task is no longer queued.
    expect(await store.transition(task.id, 'queued', 'processing')).toBe(false);
    // A write without progress changes nothing a stream shows.
    expect(await store.updateWhile(task.id, 'processing', { resultUrl: 'http://127.0.0.1/unrelated' })).toBe(
      true,
    );
    expect(await store.updateWhile(task.id, 'processing', { progress: 30 })).toBe(true);
    // Not in that status: nothing written.
    expect(await store.updateWhile(task.id, 'queued', { progress: 31 })).toBe(false);
    expect(await store.transition(task.id, 'processing', 'completed', { progress: 100 })).toBe(true);
    await waitFor(async () => received.length === 3, 5_000);
    await sleep(200);
    expect(received).toEqual([[task.id], [task.id], [task.id]]);
    // Each announcement stands for a recorded change: created, processing, progress 30, completed.
    const { rows } = await pool.query<{ status: string; progress: number }>(
      'SELECT status, progress FROM task_events WHERE task_id = $1 ORDER BY seq',
      [task.id],
    );
    expect(rows).toEqual([
      { status: 'queued', progress: 0 },
      { status: 'processing', progress: 0 },
      { status: 'processing', progress: 30 },
      { status: 'completed', progress: 100 },
    ]);
  });
});
