import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { TcpOutageProxy } from './tcp-outage.proxy';
import { holdOf, seedVideoDemo, startVideoWorker, type VideoDemo, type VideoObject } from './video-demo';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A create while the gateway cannot reach Redis: the task is written and answered, and runs once Redis is back. */
describe('video creates without Redis', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;

  beforeAll(async () => {
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({ REDIS_URL: proxy.url(REDIS_URL) });
    demo = await seedVideoDemo(harness);
    // The worker reaches Redis directly: only the gateway loses it.
    worker = await startVideoWorker(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
    await proxy.close();
  });

  const statusOf = async (taskId: string) =>
    (await harness.query<{ status: string }>('select status from tasks where id = $1', [taskId]))[0]?.status;

  it('answers the queued video at once, and the task completes once the gateway reaches Redis again', async () => {
    await proxy.cut();
    let created: HttpAnswer<VideoObject>;
    try {
      created = await harness.request<VideoObject>('POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'Written while Redis is away' },
        headers: { authorization: `Bearer ${demo.key}` },
      });
      expect(created.status).toBe(200);
      expect(created.body.status).toBe('queued');
      expect(await statusOf(created.body.id)).toBe('queued');
      expect((await holdOf(harness, created.body.id))?.status).toBe('open');
    } finally {
      await proxy.restore();
    }
    await waitFor(async () => (await statusOf(created.body.id)) === 'completed', 30_000);
  });
});
