import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { eventsOf, openEventStream, type SseFrame } from './task-events.client';
import { newVideoAccount, seedVideoDemo, startVideoWorker, videoClient, type VideoDemo } from './video-demo';

type StreamEvent = Extract<SseFrame, { kind: 'event' }>;

interface TaskData {
  id: string;
  object: string;
  status: string;
  progress: number;
  result: { urls: string[] } | null;
}

/**
 * `GET /v1/tasks/{id}/events` end to end: the gateway, worker-video and the simulators, the events fed
 * by the database's trigger and the gateway's one reader (a 50 ms fallback poll here, besides the
 * writers' announcements). Each stream's ids are checked against the recorded history (task_events):
 * every change once, in order, across a dropped connection too.
 */
describe('task event streams', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      TASK_EVENTS_HEARTBEAT_MS: '200',
      TASK_EVENTS_FALLBACK_POLL_MS: '50',
      TASK_EVENTS_MAX_STREAMS_PER_ACCOUNT: '3',
    });
    demo = await seedVideoDemo(harness);
    // Tasks of a second or two: every progress a poll brings is written (not one per 5 s), so that the
    // streams have progress events to follow.
    worker = await startVideoWorker(harness, { TASK_PROGRESS_WRITE_INTERVAL_MS: '100' });
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const eventsUrl = (id: string, base = harness.url) => `${base}/v1/tasks/${encodeURIComponent(id)}/events`;
  const createVideo = async (prompt: string, key = demo.key) =>
    (await videoClient(harness.url, key).videos.create({ model: 'delta-2' as never, prompt })).id;
  const recordedIds = async (taskId: string): Promise<string[]> =>
    (
      await harness.query<{ seq: string }>(
        'SELECT seq::text AS seq FROM task_events WHERE task_id = $1 ORDER BY task_events.seq',
        [taskId],
      )
    ).map((row) => row.seq);
  const dataOf = (event: StreamEvent) => JSON.parse(event.data) as TaskData;
  /**
   * A running task no worker moves (music: this harness runs no music cycle), so that only the test
   * changes it.
   */
  const idleTask = async (account: { accountId: string; keyId: string } = demo): Promise<string> => {
    const id = `music_${randomBytes(16).toString('base64url').slice(0, 22)}`;
    await harness.query(
      `INSERT INTO tasks (id, kind, key_id, account_id, model, status, progress, request, deadline_at)
       VALUES ($1, 'music', $2, $3, 'lambda-v3-0', 'processing', 5, '{}', now() + interval '1 hour')`,
      [id, account.keyId, account.accountId],
    );
    return id;
  };

  function expectIncreasingIds(events: StreamEvent[]): void {
    const ids = events.map((event) => Number(event.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1])).toBe(true);
  }

  it('follows a video through each progress change to its completed event, then ends', async () => {
    const id = await createVideo('a slow tide [[sim task_ms=1500]]');
    const stream = await openEventStream(eventsUrl(id), demo.key);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await eventsOf(stream);
    const last = events[events.length - 1];
    expect(last.event).toBe('completed');
    expect(dataOf(last)).toMatchObject({ id, object: 'task', status: 'completed', progress: 100 });
    expect(dataOf(last).result?.urls[0]).toContain(`/v1/videos/${id}/content`);
    expect(events.slice(0, -1).every((event) => event.event === 'progress')).toBe(true);
    expect(events.some((event) => dataOf(event).status === 'processing' && dataOf(event).progress > 0)).toBe(
      true,
    );
    expectIncreasingIds(events);
    // Every change recorded from the one the stream started with is the stream's, once.
    const recorded = await recordedIds(id);
    expect(events.map((event) => event.id)).toEqual(recorded.slice(recorded.indexOf(events[0].id as string)));
  });

  it('resumes a dropped stream with Last-Event-ID without missing or repeating an event', async () => {
    const id = await createVideo('waves resumed [[sim task_ms=2000]]');
    const first = await openEventStream(eventsUrl(id), demo.key);
    const before = await eventsOf(first, (events) => events.some((event) => dataOf(event).progress > 0));
    first.drop();
    // Changes go on while the client is away.
    const lastSeen = before[before.length - 1].id as string;
    await waitFor(async () => (await recordedIds(id)).slice(-1)[0] !== lastSeen, 10_000);
    const second = await openEventStream(eventsUrl(id), demo.key, lastSeen);
    expect(second.status).toBe(200);
    const after = await eventsOf(second);
    const all = [...before, ...after];
    expect(after[after.length - 1].event).toBe('completed');
    expectIncreasingIds(all);
    const recorded = await recordedIds(id);
    expect(all.map((event) => event.id)).toEqual(recorded.slice(recorded.indexOf(before[0].id as string)));
    // Resumed after the end: nothing more will come, which 204 tells an EventSource.
    const ended = await openEventStream(eventsUrl(id), demo.key, after[after.length - 1].id);
    expect(ended.status).toBe(204);
  });

  it('answers a finished task with its terminal event at once and closes', async () => {
    const id = await createVideo('already done');
    await waitFor(
      async () =>
        (await harness.query<{ status: string }>('SELECT status FROM tasks WHERE id = $1', [id]))[0]
          ?.status === 'completed',
      30_000,
    );
    const events = await eventsOf(await openEventStream(eventsUrl(id), demo.key));
    expect(events.map((event) => event.event)).toEqual(['completed']);
    expect(dataOf(events[0]).status).toBe('completed');
  });

  it('sends a comment line while nothing changes', async () => {
    const id = await idleTask();
    const stream = await openEventStream(eventsUrl(id), demo.key);
    const frames: SseFrame[] = [];
    for (let frame = await stream.next(); frame; frame = await stream.next()) {
      frames.push(frame);
      if (frames.filter((seen) => seen.kind === 'comment').length >= 2) break;
    }
    stream.drop();
    expect(frames.filter((frame) => frame.kind === 'event')).toHaveLength(1);
    expect(frames.filter((frame) => frame.kind === 'comment')).toEqual([
      { kind: 'comment', text: 'keep-alive' },
      { kind: 'comment', text: 'keep-alive' },
    ]);
  });

  it('answers 404 for another account’s task and a malformed id, 400 for a malformed Last-Event-ID', async () => {
    const id = await createVideo('mine only');
    const stranger = await newVideoAccount(harness);
    for (const [url, key] of [
      [eventsUrl(id), stranger.key],
      [eventsUrl('video_short'), demo.key],
      [eventsUrl(`${id}\u0000`), demo.key],
      [eventsUrl('x'.repeat(90)), demo.key],
    ] as const) {
      const answer = await openEventStream(url, key);
      expect(answer.status).toBe(404);
      expect(JSON.parse(await answer.text())).toMatchObject({ error: { code: 'not_found' } });
    }
    for (const lastEventId of ['abc', '-1', '1e3', '9'.repeat(40)]) {
      const answer = await openEventStream(eventsUrl(id), demo.key, lastEventId);
      expect(answer.status).toBe(400);
      expect(JSON.parse(await answer.text())).toMatchObject({ error: { type: 'invalid_request_error' } });
    }
    const unauthenticated = await fetch(eventsUrl(id));
    expect(unauthenticated.status).toBe(401);
  });

  it('caps the open streams of an account (429), and frees a slot when a stream closes', async () => {
    const caps = await newVideoAccount(harness);
    const id = await idleTask(caps);
    const open = await Promise.all([1, 2, 3].map(() => openEventStream(eventsUrl(id), caps.key)));
    expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);
    const refused = await openEventStream(eventsUrl(id), caps.key);
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.text())).toMatchObject({ error: { type: 'rate_limit_error' } });
    // Another account is not affected.
    const other = await openEventStream(eventsUrl(await idleTask()), demo.key);
    expect(other.status).toBe(200);
    other.drop();
    open[0].drop();
    await waitFor(async () => {
      const again = await openEventStream(eventsUrl(id), caps.key);
      again.drop();
      return again.status === 200;
    }, 5_000);
    for (const stream of open) stream.drop();
  });

  it('loses nothing when the instance’s reading session is killed: the next read catches up', async () => {
    const id = await idleTask();
    const stream = await openEventStream(eventsUrl(id), demo.key);
    const opening = await eventsOf(stream, (events) => events.length === 1);
    await harness.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'gateway-task-events' AND datname = current_database()`,
    );
    // Recorded while the feed has no session: read by the next poll that has one.
    await harness.query(`UPDATE tasks SET progress = 77 WHERE id = $1`, [id]);
    await harness.query(`UPDATE tasks SET progress = 78 WHERE id = $1`, [id]);
    const caughtUp = await eventsOf(stream, (events) => events.length === 2);
    expect(caughtUp.map((event) => [event.event, dataOf(event).progress])).toEqual([
      ['progress', 77],
      ['progress', 78],
    ]);
    expect(Number(caughtUp[0].id)).toBeGreaterThan(Number(opening[0].id));
    // And it goes on.
    await harness.query(
      `UPDATE tasks SET status = 'failed', failure_reason = 'upstream_error: gone' WHERE id = $1`,
      [id],
    );
    const [ended] = await eventsOf(stream);
    expect(ended.event).toBe('failed');
    expect(dataOf(ended).status).toBe('failed');
  });

  it('ends its streams when the gateway shuts down, and the client resumes on another instance', async () => {
    const instance = await harness.startInstance({ shutdownGraceMs: 120_000 });
    const id = await createVideo('moving house [[sim task_ms=1500]]');
    const stream = await openEventStream(eventsUrl(id, instance.url), demo.key);
    const [first] = await eventsOf(stream, (events) => events.length === 1);
    await instance.close();
    // The stream ended without a terminal event (the test would wait for the grace period otherwise).
    const rest = await eventsOf(stream);
    const resumed = await eventsOf(
      await openEventStream(eventsUrl(id), demo.key, first.id ?? rest.slice(-1)[0]?.id),
    );
    expect(resumed[resumed.length - 1].event).toBe('completed');
  });
});
