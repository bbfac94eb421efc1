import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BuiltApps, waitFor, type AppProcess } from '@gateway/testing';
import { WebhookReceiver } from '@gateway/testing-workers/webhooks';
import { WebhookStack } from './webhook-stack';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The production build of worker-text, which hosts the delivery worker, SIGKILLed while it sends an
 * event: the outbox row outlives it, and the next worker delivers it (and an event written while no
 * worker ran) under the same webhook-id.
 */
describe('webhook delivery when worker-text is SIGKILLed (production build)', () => {
  let built: BuiltApps;
  let stack: WebhookStack;
  let receiver: WebhookReceiver;
  const workers: AppProcess[] = [];

  beforeAll(async () => {
    built = BuiltApps.build();
    stack = await WebhookStack.start({ SSRF_ALLOW_HOSTS: '127.0.0.1' });
    receiver = await WebhookReceiver.start(() => 'hang');
  });

  afterAll(async () => {
    await receiver?.close();
    await Promise.all(workers.map((worker) => worker.kill()));
    await stack?.close();
    built?.remove();
  });

  function startWorkerText(): AppProcess {
    const worker = built.start('worker-text', {
      DATABASE_URL: stack.config.databaseUrl,
      REDIS_URL,
      REDIS_PREFIX: `test-webhooks-${randomBytes(4).toString('hex')}`,
      ADMIN_TOKEN: 'webhooks-admin-token-0123456789',
      MASTER_KEY: stack.config.masterKeys.currentKey.toString('hex'),
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '500',
      SSRF_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_RETRY_SCHEDULE: '0s,200ms,200ms',
      // An attempt's lease is its time limit plus 5 s: the killed worker's delivery is free in 6 s.
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_INTERVAL_MS: '100',
    });
    workers.push(worker);
    return worker;
  }

  it('delivers after a restart what a killed worker was sending and what ended while none ran', async () => {
    const endpoint = await stack.addEndpoint({ url: receiver.url, events: ['video.completed'] });
    receiver.secrets = [endpoint.secret];
    const inFlight = await stack.finishTask('video', 'completed');
    const first = startWorkerText();
    await waitFor(async () => receiver.received.length >= 1, 30_000);

    first.signal('SIGKILL');
    await first.exited;
    expect((await stack.deliveriesOf(endpoint.id))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    // Ended while no worker runs: only the outbox row knows of it.
    const whileDown = await stack.finishTask('video', 'completed');
    receiver.answerWith(() => 200);
    await sleep(200);
    expect(receiver.received).toHaveLength(1);

    startWorkerText();
    await waitFor(async () => {
      const deliveries = await stack.deliveriesOf(endpoint.id);
      return deliveries.length === 2 && deliveries.every((delivery) => delivery.status === 'delivered');
    }, 30_000);
    const deliveries = await stack.deliveriesOf(endpoint.id);
    const idsOf = (taskId: string) =>
      receiver.received
        .filter((delivery) => delivery.event.data['id'] === taskId)
        .map((delivery) => delivery.id);
    // The interrupted delivery was sent again under its own webhook-id; the other one once.
    expect(idsOf(inFlight)).toHaveLength(2);
    expect(new Set(idsOf(inFlight)).size).toBe(1);
    expect(idsOf(whileDown)).toHaveLength(1);
    expect(new Set(receiver.received.map((delivery) => delivery.id))).toEqual(
      new Set(deliveries.map((d) => d.id)),
    );
    expect(
      receiver.received.every((delivery) => delivery.verifiedByOpenAi && delivery.verifiedByStandardWebhooks),
    ).toBe(true);
  });
});
