import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { eventsOf, openEventStream } from './task-events.client';
import { TcpOutageProxy } from './tcp-outage.proxy';
import { seedVideoDemo, startVideoWorker, videoClient, type VideoDemo } from './video-demo';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Open progress streams while the gateway loses Redis: they are fed by the database (the trigger's
 * records, read by the instance's feed), so they go on through the outage, and every change reaches
 * them once.
 */
describe('task event streams through a Redis outage', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;

  beforeAll(async () => {
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({
      REDIS_URL: proxy.url(REDIS_URL),
      TASK_EVENTS_FALLBACK_POLL_MS: '50',
    });
    demo = await seedVideoDemo(harness);
    // The worker reaches Redis directly: only the gateway loses it.
    worker = await startVideoWorker(harness, { REDIS_URL });
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
    await proxy.close();
  });

  const recordedIds = async (taskId: string): Promise<string[]> =>
    (
      await harness.query<{ seq: string }>(
        'SELECT seq::text AS seq FROM task_events WHERE task_id = $1 ORDER BY task_events.seq',
        [taskId],
      )
    ).map((row) => row.seq);

  it('keeps feeding open streams while Redis is away, each change once, to the terminal event', async () => {
    const client = videoClient(harness.url, demo.key);
    const ids = await Promise.all(
      [1, 2, 3].map(
        async (n) =>
          (
            await client.videos.create({
              model: 'delta-2' as never,
              prompt: `tide ${n} [[sim task_ms=2500]]`,
            })
          ).id,
      ),
    );
    const streams = await Promise.all(
      ids.map((id) => openEventStream(`${harness.url}/v1/tasks/${id}/events`, demo.key)),
    );
    // Cut once the worker runs them (a create's job reaches Redis just after its answer).
    const running = (events: Array<{ data: string }>) =>
      events.some((event) => (JSON.parse(event.data) as { status: string }).status === 'processing');
    const firsts = await Promise.all(streams.map((stream) => eventsOf(stream, running)));
    await proxy.cut();
    try {
      // Changes committed during the outage reach the open streams.
      const during = await Promise.all(
        streams.map((stream) => eventsOf(stream, (events) => events.length === 1)),
      );
      for (const [index, [event]] of during.entries()) {
        expect(Number(event.id)).toBeGreaterThan(Number(firsts[index][0].id));
      }
      const rests = await Promise.all(streams.map((stream) => eventsOf(stream)));
      for (const [index, id] of ids.entries()) {
        const received = [...firsts[index], ...during[index], ...rests[index]];
        expect(received[received.length - 1].event).toBe('completed');
        const recorded = await recordedIds(id);
        expect(received.map((event) => event.id)).toEqual(
          recorded.slice(recorded.indexOf(received[0].id as string)),
        );
      }
    } finally {
      await proxy.restore();
    }
    // And a stream opened once Redis is back works as before.
    await waitFor(async () => (await harness.request('GET', '/healthz')).status === 200, 10_000);
    const again = await eventsOf(await openEventStream(`${harness.url}/v1/tasks/${ids[0]}/events`, demo.key));
    expect(again.map((event) => event.event)).toEqual(['completed']);
  });
});
