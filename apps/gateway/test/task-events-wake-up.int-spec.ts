import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { RedisTaskChangePublisher, TaskStore, taskChangesChannel } from '@gateway/tasks';
import { waitFor } from '@gateway/testing';
import Redis from 'ioredis';
import type { Pool } from 'pg';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { eventsOf, openEventStream, type OpenedEventStream, type SseFrame } from './task-events.client';
import { seedVideoDemo, startVideoWorker, videoClient, type VideoDemo } from './video-demo';

type StreamEvent = Extract<SseFrame, { kind: 'event' }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Far beyond every wait below: an event that arrives came through the wake-up, not the fallback poll. */
const LONG_FALLBACK_POLL_MS = '60000';
/** What "at once" means here: the announcement, one read and the write to the socket on a busy CI. */
const PROMPT_MS = 1_000;

/**
 * The progress streams fed by the writers' announcements on Redis (docs/task-events.md, "How it is
 * fed"): with the fallback poll set to a minute, a change written through TaskStore (a worker's, or one
 * this test writes with its own TaskStore, as another process would) reaches its stream within a
 * second; a change nobody announces (plain SQL) waits for the fallback poll and is still delivered, once;
 * resumption stays exact; garbage on the channel changes nothing.
 */
describe('task event streams woken by change announcements', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;
  let pool: Pool;
  let prisma: PrismaClient;
  let redis: Redis;
  /** A writer in another process: TaskStore with its announcer, as the workers have it. */
  let store: TaskStore;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      TASK_EVENTS_FALLBACK_POLL_MS: LONG_FALLBACK_POLL_MS,
      TASK_EVENTS_HEARTBEAT_MS: '60000',
    });
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness, { TASK_PROGRESS_WRITE_INTERVAL_MS: '100' });
    pool = createPgPool(harness.config.databaseUrl, 2);
    prisma = createPrismaClient(pool);
    redis = new Redis(harness.config.redisUrl);
    store = new TaskStore(
      prisma,
      pool,
      new RedisTaskChangePublisher(() => redis, harness.config.redisPrefix, { warn: () => undefined }),
    );
  });
  afterAll(async () => {
    await worker?.close();
    redis?.disconnect();
    await prisma?.$disconnect();
    await pool?.end();
    await harness.close();
  });

  const eventsUrl = (id: string, base = harness.url) => `${base}/v1/tasks/${encodeURIComponent(id)}/events`;
  const recordedIds = async (taskId: string): Promise<string[]> =>
    (
      await harness.query<{ seq: string }>(
        'SELECT seq::text AS seq FROM task_events WHERE task_id = $1 ORDER BY task_events.seq',
        [taskId],
      )
    ).map((row) => row.seq);
  const progressOf = (event: StreamEvent) => (JSON.parse(event.data) as { progress: number }).progress;
  /** A running task no worker moves (this harness runs no music cycle): only the test changes it. */
  const idleTask = async (): Promise<string> => {
    const id = `music_${randomBytes(16).toString('base64url').slice(0, 22)}`;
    await harness.query(
      `INSERT INTO tasks (id, kind, key_id, account_id, model, status, progress, request, deadline_at)
       VALUES ($1, 'music', $2, $3, 'lambda-v3-0', 'processing', 5, '{}', now() + interval '1 hour')`,
      [id, demo.keyId, demo.accountId],
    );
    return id;
  };
  /** A read that outlived its wait: the next wait on that stream takes it over (its event is not lost). */
  const unfinishedReads = new WeakMap<OpenedEventStream, Promise<StreamEvent | 'ended'>>();
  const readEvent = async (stream: OpenedEventStream): Promise<StreamEvent | 'ended'> => {
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      if (frame.kind === 'event') return frame;
    }
    return 'ended';
  };
  /** The stream's next event, 'late' when none came within `ms`, 'ended' when the stream ended first. */
  const nextEventWithin = async (
    stream: OpenedEventStream,
    ms: number,
  ): Promise<StreamEvent | 'late' | 'ended'> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ms);
    });
    const read = unfinishedReads.get(stream) ?? readEvent(stream);
    unfinishedReads.delete(stream);
    try {
      const outcome = await Promise.race([read, late]);
      if (outcome === 'late') unfinishedReads.set(stream, read);
      return outcome;
    } finally {
      clearTimeout(timer);
    }
  };
  const openedOn = async (id: string, base = harness.url): Promise<OpenedEventStream> => {
    const stream = await openEventStream(eventsUrl(id, base), demo.key);
    expect(stream.status).toBe(200);
    await eventsOf(stream, (events) => events.length === 1);
    return stream;
  };

  it('follows a worker’s video to its end within seconds although the fallback poll is a minute away', async () => {
    const startedAt = Date.now();
    const { id } = await videoClient(harness.url, demo.key).videos.create({
      model: 'delta-2' as never,
      prompt: 'a quick tide [[sim task_ms=1500]]',
    });
    const events = await eventsOf(await openEventStream(eventsUrl(id), demo.key));
    expect(events[events.length - 1].event).toBe('completed');
    expect(Date.now() - startedAt).toBeLessThan(20_000);
    expect(events.some((event) => event.event === 'progress' && progressOf(event) > 0)).toBe(true);
    const recorded = await recordedIds(id);
    expect(events.map((event) => event.id)).toEqual(recorded.slice(recorded.indexOf(events[0].id as string)));
  });

  it('delivers a change written through TaskStore within a second of its commit, each time', async () => {
    const id = await idleTask();
    const stream = await openedOn(id);
    for (const progress of [20, 40, 60]) {
      const writtenAt = Date.now();
      expect(await store.updateWhile(id, 'processing', { progress })).toBe(true);
      const event = await nextEventWithin(stream, PROMPT_MS);
      expect(event).not.toBe('late');
      expect(progressOf(event as StreamEvent)).toBe(progress);
      expect(Date.now() - writtenAt).toBeLessThan(PROMPT_MS);
    }
    expect(
      await store.transition(id, 'processing', 'failed', { failureReason: 'upstream_error: gone' }),
    ).toBe(true);
    const ended = await nextEventWithin(stream, PROMPT_MS);
    expect(ended).not.toBe('late');
    expect((ended as StreamEvent).event).toBe('failed');
    expect(await stream.next()).toBeUndefined();
  });

  it('delivers an unannounced change at the fallback poll, once, and at once when it is announced late', async () => {
    const id = await idleTask();
    const polling: GatewayInstance = await harness.startInstance({
      taskEvents: { ...harness.config.taskEvents, fallbackPollMs: 500 },
    });
    try {
      const woken = await openedOn(id);
      const polled = await openedOn(id, polling.url);
      // Past the one read each instance makes once its subscription takes effect.
      await sleep(300);
      // Plain SQL: a writer killed between its commit and its publish, as far as the streams can tell.
      await harness.query('UPDATE tasks SET progress = 33 WHERE id = $1', [id]);
      const [recorded] = (await recordedIds(id)).slice(-1);
      const fromPoll = await nextEventWithin(polled, 5_000);
      expect(fromPoll).not.toBe('late');
      expect([(fromPoll as StreamEvent).id, progressOf(fromPoll as StreamEvent)]).toEqual([recorded, 33]);
      // The instance that polls once a minute has not read it: nothing woke it.
      expect(await nextEventWithin(woken, 1_000)).toBe('late');
      // A late announcement (the writer's, after a Redis outage) wakes it.
      await redis.publish(taskChangesChannel(harness.config.redisPrefix), JSON.stringify([id]));
      const fromWakeUp = await nextEventWithin(woken, PROMPT_MS);
      expect(fromWakeUp).not.toBe('late');
      expect((fromWakeUp as StreamEvent).id).toBe(recorded);
      // Announced again: already delivered, so nothing more.
      await redis.publish(taskChangesChannel(harness.config.redisPrefix), JSON.stringify([id]));
      expect(await nextEventWithin(woken, 500)).toBe('late');
      woken.drop();
      polled.drop();
    } finally {
      await polling.close();
    }
  });

  it('resumes with Last-Event-ID exactly: every change after it, none twice', async () => {
    const id = await idleTask();
    const first = await openedOn(id);
    for (const progress of [11, 12]) {
      await store.updateWhile(id, 'processing', { progress });
      expect(await nextEventWithin(first, PROMPT_MS)).not.toBe('late');
    }
    first.drop();
    const lastSeen = (await recordedIds(id)).slice(-1)[0];
    // While the client is away.
    await store.updateWhile(id, 'processing', { progress: 13 });
    await store.updateWhile(id, 'processing', { progress: 14 });
    const second = await openEventStream(eventsUrl(id), demo.key, lastSeen);
    expect(second.status).toBe(200);
    const missed = await eventsOf(second, (events) => events.length === 2);
    expect(missed.map(progressOf)).toEqual([13, 14]);
    await store.updateWhile(id, 'processing', { progress: 15 });
    const live = await nextEventWithin(second, PROMPT_MS);
    expect(live).not.toBe('late');
    // Failed, not completed: a finished music task's view asks its upstream, which this one has none of.
    await store.transition(id, 'processing', 'failed', { failureReason: 'upstream_error: gone' });
    const rest = await eventsOf(second);
    expect(rest.map((event) => event.event)).toEqual(['failed']);
    const all = [...missed, live as StreamEvent, ...rest].map((event) => event.id);
    const recorded = await recordedIds(id);
    expect(all).toEqual(recorded.slice(recorded.indexOf(lastSeen) + 1));
  });

  it('ignores garbage on the channel and goes on with well-formed announcements', async () => {
    const id = await idleTask();
    const stream = await openedOn(id);
    const channel = taskChangesChannel(harness.config.redisPrefix);
    for (const garbage of ['not json', '{"id":1}', '[1,null,{}]', `["${'x'.repeat(10_000)}"]`, '']) {
      await redis.publish(channel, garbage);
    }
    expect(await nextEventWithin(stream, 300)).toBe('late');
    await store.updateWhile(id, 'processing', { progress: 50 });
    const event = await nextEventWithin(stream, PROMPT_MS);
    expect(event).not.toBe('late');
    expect(progressOf(event as StreamEvent)).toBe(50);
    stream.drop();
    // The gateway still answers.
    await waitFor(async () => (await fetch(`${harness.url}/healthz`)).status === 200, 5_000);
  });
});
