import { setTimeout as sleep } from 'node:timers/promises';
import { BuiltApps, waitFor, type AppProcess } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, seedImageDemo } from './image-demo';

/**
 * The production build of worker-image SIGKILLed while it makes an image job's upstream call: the
 * job's row and step job outlive it, the next worker takes the job over (BullMQ's stalled-job
 * recovery), makes the images and charges them once.
 */
describe('an image job when worker-image is SIGKILLed mid-call (production build)', () => {
  let built: BuiltApps;
  let harness: GatewayHarness;
  const workers: AppProcess[] = [];
  const { OBJECT_STORE_DIR } = imageHarnessEnv();

  beforeAll(async () => {
    built = BuiltApps.build();
    harness = await GatewayHarness.start({ OBJECT_STORE_DIR });
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.kill()));
    await harness?.close();
    built?.remove();
  });

  function startWorkerImage(): AppProcess {
    const { config } = harness;
    const worker = built.start('worker-image', {
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ADMIN_TOKEN: config.adminToken,
      MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
      OBJECT_STORE_DIR,
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '500',
      // A dead worker's job is found stalled within about 2.5 s.
      QUEUE_LOCK_DURATION_MS: '2000',
      QUEUE_STALLED_INTERVAL_MS: '500',
    });
    workers.push(worker);
    return worker;
  }

  it('loses nothing and charges once', async () => {
    const demo = await seedImageDemo(harness);
    const first = startWorkerImage();
    const created = await harness.request<{ id: string }>('POST', '/v1/images/generations', {
      body: { model: 'img-1', prompt: 'A slow lighthouse [[sim latency=3000]]', response_format: 'b64_json' },
      headers: { authorization: `Bearer ${demo.key}`, prefer: 'respond-async' },
    });
    expect(created.status).toBe(202);
    const taskId = created.body.id;
    const statusOf = async () =>
      (await harness.query<{ status: string }>('select status from tasks where id = $1', [taskId]))[0]
        ?.status;

    await waitFor(async () => (await statusOf()) === 'processing', 20_000);
    await sleep(300);
    first.signal('SIGKILL');
    await first.exited;
    expect(await statusOf()).toBe('processing');

    const second = startWorkerImage();
    await waitFor(async () => (await statusOf()) === 'completed', 30_000);
    // The second worker made the images (its log is written asynchronously).
    await waitFor(async () => second.logged('image job completed').length === 1, 5_000);

    const answer = await harness.request<{ status: string; cost_micros: string; data: unknown[] }>(
      'GET',
      `/v1/images/generations/${taskId}`,
      { headers: { authorization: `Bearer ${demo.key}` } },
    );
    expect(answer.body).toMatchObject({ status: 'completed', cost_micros: IMAGE_PRICE_MICROS.toString() });
    expect(answer.body.data).toHaveLength(1);
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(IMAGE_PRICE_MICROS);
    const captures = await harness.query<{ amount: string }>(
      "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
      [taskId],
    );
    expect(captures).toEqual([{ amount: IMAGE_PRICE_MICROS.toString() }]);
    expect(second.unstructuredLines()).toEqual([]);
  });
});
