import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { allowConnections, refuseConnections, TEST_POSTGRES_ADMIN_URL, waitFor } from '@gateway/testing';
import { WebhookReceiver } from '@gateway/testing-workers/webhooks';
import { ACCOUNT_A, ACCOUNT_B, WebhookStack } from './webhook-stack';

/** Long enough that a receiver holding a request open is still holding it when the test looks. */
const TIMEOUT_MS = 30_000;

/** A loopback port that accepts connections and counts them, never answering. */
async function connectionCounter(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('webhook delivery (outbox → signed POSTs)', () => {
  let stack: WebhookStack;
  const receivers: WebhookReceiver[] = [];

  async function receiver(...args: Parameters<typeof WebhookReceiver.start>): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start(...args);
    receivers.push(started);
    return started;
  }

  beforeAll(async () => {
    stack = await WebhookStack.start({
      WEBHOOK_RETRY_SCHEDULE: '0s,200ms,200ms',
      WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      WEBHOOK_ENDPOINT_CONCURRENCY: '2',
      // Loopback receivers are this test's endpoints; only addresses named here are let through.
      SSRF_ALLOW_HOSTS: '127.0.0.1',
    });
  });

  afterEach(async () => {
    // Receivers first: their held requests are answered, so the workers' attempts end at once.
    await Promise.all(receivers.splice(0).map((started) => started.close()));
    await stack.stopWorkers();
    await stack.prisma.webhookEndpoint.updateMany({ data: { status: 'disabled' } });
  });

  afterAll(() => stack.close());

  it('delivers one signed event per video, music task, /bt image task and asset, each verified by the openai SDK and standardwebhooks', async () => {
    const target = await receiver();
    const endpoint = await stack.addEndpoint({ url: target.url });
    target.secrets = [endpoint.secret];
    const video = await stack.finishTask('video', 'completed');
    const music = await stack.finishTask('music', 'failed');
    const image = await stack.finishTask('image', 'completed');
    const asset = await stack.finishAsset('Active');
    // A second writer racing to the same end loses its compare-and-swap and writes no event.
    expect(await stack.tasks.transition(video, 'processing', 'failed', { failureReason: 'late' })).toBe(
      false,
    );
    stack.startWorker();

    await waitFor(async () => target.received.length >= 4);
    await sleep(500);
    expect(target.received).toHaveLength(4);
    expect(target.received.every((delivery) => delivery.verifiedByOpenAi)).toBe(true);
    expect(target.received.every((delivery) => delivery.verifiedByStandardWebhooks)).toBe(true);
    const byType = new Map(target.received.map((delivery) => [delivery.event.type, delivery.event]));
    expect([...byType.keys()].sort()).toEqual([
      'asset.active',
      'image.completed',
      'music.failed',
      'video.completed',
    ]);
    expect(byType.get('video.completed')).toMatchObject({
      object: 'event',
      id: expect.stringMatching(/^evt_/),
      created_at: expect.any(Number),
      data: {
        id: video,
        object: 'video',
        status: 'completed',
        progress: 100,
        video_url: `https://gateway.example.test/v1/videos/${video}/content`,
      },
    });
    expect(byType.get('music.failed')?.data).toMatchObject({ id: music, task_id: music, status: 'FAILURE' });
    expect(byType.get('image.completed')?.data).toMatchObject({
      id: image,
      object: 'image.task',
      status: 'completed',
    });
    expect(byType.get('asset.active')?.data).toMatchObject({ id: asset, Id: asset, Status: 'Active' });
    const deliveries = await stack.deliveriesOf(endpoint.id);
    expect(deliveries.map((delivery) => delivery.status)).toEqual(Array(4).fill('delivered'));
    expect(new Set(target.received.map((delivery) => delivery.id))).toEqual(
      new Set(deliveries.map((d) => d.id)),
    );
  });

  it('sends the same webhook-id on each retry: 500, 500, then 200, and nothing after', async () => {
    const target = await receiver((index) => (index < 2 ? 500 : 200));
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['video.failed'] });
    target.secrets = [endpoint.secret];
    await stack.finishTask('video', 'failed');
    stack.startWorker();

    await waitFor(async () => target.received.length >= 3);
    await sleep(1_000);
    expect(target.received).toHaveLength(3);
    expect(new Set(target.received.map((delivery) => delivery.id)).size).toBe(1);
    expect(new Set(target.received.map((delivery) => delivery.body)).size).toBe(1);
    expect(target.received.every((delivery) => delivery.verifiedByOpenAi)).toBe(true);
    const [delivery] = await stack.deliveriesOf(endpoint.id);
    expect(delivery).toMatchObject({ id: target.received[0].id, status: 'delivered' });
    const attempts = await stack.attemptsOf(delivery.id);
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 200]);
  });

  it('marks a delivery failed after the last attempt of the schedule', async () => {
    const target = await receiver(() => 503);
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['video.cancelled'] });
    target.secrets = [endpoint.secret];
    await stack.finishTask('video', 'cancelled');
    stack.startWorker();

    await waitFor(async () => (await stack.deliveriesOf(endpoint.id))[0]?.status === 'failed');
    await sleep(500);
    expect(target.received).toHaveLength(3);
  });

  it('disables an endpoint that answers 410 Gone, and sends it nothing more', async () => {
    const target = await receiver(() => 410);
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['music.completed'] });
    target.secrets = [endpoint.secret];
    await stack.finishTask('music', 'completed');
    stack.startWorker();
    await waitFor(async () => (await stack.deliveriesOf(endpoint.id))[0]?.status === 'failed');
    // The worker records the delivery, then disables the endpoint: two statements, read between them
    // once in a loaded CI run.
    await waitFor(
      async () =>
        (await stack.prisma.webhookEndpoint.findUnique({ where: { id: endpoint.id } }))?.status ===
        'disabled',
    );
    expect(await stack.prisma.webhookEndpoint.findUnique({ where: { id: endpoint.id } })).toMatchObject({
      status: 'disabled',
      disabledReason: expect.stringContaining('410'),
    });
    await stack.finishTask('music', 'completed');
    await sleep(500);
    expect(target.received).toHaveLength(1);
    expect(await stack.deliveriesOf(endpoint.id)).toHaveLength(1);
  });

  it('does not let an endpoint that never answers delay another endpoint', async () => {
    const silent = await receiver(() => 'hang');
    const prompt = await receiver();
    const silentEndpoint = await stack.addEndpoint({ url: silent.url, events: ['image.failed'] });
    const promptEndpoint = await stack.addEndpoint({ url: prompt.url, events: ['image.failed'] });
    silent.secrets = [silentEndpoint.secret];
    prompt.secrets = [promptEndpoint.secret];
    for (let index = 0; index < 6; index += 1) await stack.finishTask('image', 'failed');
    stack.startWorker();

    await waitFor(async () => prompt.received.length >= 6);
    // Every event reached the answering endpoint while the silent one still holds its first requests
    // open (nothing of it answered, its attempt limit is far off): at most its bound of 2 in flight.
    expect(silent.received.length).toBeGreaterThan(0);
    expect(silent.received.length).toBeLessThanOrEqual(2);
    const silentAttempts = await stack.prisma.webhookAttempt.count({
      where: {
        deliveryId: { in: (await stack.deliveriesOf(silentEndpoint.id)).map((delivery) => delivery.id) },
      },
    });
    expect(silentAttempts).toBe(0);
  });

  it('signs with both secrets after a rotation, each verifying alone', async () => {
    const target = await receiver();
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['asset.failed'] });
    const rotated = await stack.rotateSecret(endpoint.id);
    await stack.finishAsset('Failed');
    stack.startWorker();

    await waitFor(async () => target.received.length >= 1);
    const [delivery] = target.received;
    const signatures = delivery.signature.split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith('v1,'))).toBe(true);
    for (const secret of [endpoint.secret, rotated]) {
      // Re-verify the recorded delivery under each secret alone, with both verifiers.
      const headers = {
        'webhook-id': delivery.id,
        'webhook-timestamp': delivery.timestamp,
        'webhook-signature': delivery.signature,
      };
      expect(() => new Webhook(secret).verify(delivery.body, headers)).not.toThrow();
      await expect(
        new OpenAI({ apiKey: 'unused' }).webhooks.unwrap(delivery.body, headers, secret),
      ).resolves.toMatchObject({
        type: 'asset.failed',
      });
    }
  });

  it('never connects to a private or metadata address, nor follows a redirect to loopback', async () => {
    const loopback = await connectionCounter();
    try {
      const redirecting = await receiver();
      redirecting.answerWith(() => 302);
      // The redirect target is a loopback port the allow-list does not name; the redirect itself is
      // never followed whatever its target.
      const stackAllowsOnlyRedirector = await WebhookStack.start({
        WEBHOOK_RETRY_SCHEDULE: '0s',
        WEBHOOK_TIMEOUT_MS: '2000',
        SSRF_ALLOW_HOSTS: `127.0.0.1:${redirecting.port}`,
      });
      try {
        const endpoints = await Promise.all(
          [
            'http://10.0.0.1/hook',
            'http://169.254.169.254/latest/meta-data/',
            `http://127.0.0.1:${loopback.port}/hook`,
            redirecting.url,
          ].map((url) => stackAllowsOnlyRedirector.addEndpoint({ url, events: ['video.completed'] })),
        );
        await stackAllowsOnlyRedirector.finishTask('video', 'completed');
        stackAllowsOnlyRedirector.startWorker();
        await waitFor(async () => {
          const statuses = await Promise.all(
            endpoints.map(
              async (endpoint) => (await stackAllowsOnlyRedirector.deliveriesOf(endpoint.id))[0]?.status,
            ),
          );
          return statuses.every((status) => status === 'failed');
        });
        const errors = await Promise.all(
          endpoints.map(async (endpoint) => {
            const [delivery] = await stackAllowsOnlyRedirector.deliveriesOf(endpoint.id);
            return (await stackAllowsOnlyRedirector.attemptsOf(delivery.id)).map((attempt) => [
              attempt.statusCode,
              attempt.error,
            ]);
          }),
        );
        expect(errors[0]).toEqual([[null, expect.stringMatching(/^forbidden_address/)]]);
        expect(errors[1]).toEqual([[null, expect.stringMatching(/^forbidden_address/)]]);
        expect(errors[2]).toEqual([[null, expect.stringMatching(/^forbidden_address/)]]);
        expect(errors[3]).toEqual([[302, expect.stringContaining('redirects are not followed')]]);
        expect(redirecting.received).toHaveLength(1);
        expect(loopback.connections()).toBe(0);
      } finally {
        await stackAllowsOnlyRedirector.close();
      }
    } finally {
      loopback.server.close();
    }
  });

  it("never delivers another account's events to an account-scoped endpoint", async () => {
    const scoped = await receiver();
    const everyAccount = await receiver();
    const scopedEndpoint = await stack.addEndpoint({
      url: scoped.url,
      events: ['video.completed'],
      accountId: ACCOUNT_A,
    });
    const globalEndpoint = await stack.addEndpoint({ url: everyAccount.url, events: ['video.completed'] });
    scoped.secrets = [scopedEndpoint.secret];
    everyAccount.secrets = [globalEndpoint.secret];
    const own = await stack.finishTask('video', 'completed', ACCOUNT_A);
    const others = [
      await stack.finishTask('video', 'completed', ACCOUNT_B),
      await stack.finishTask('video', 'completed', ACCOUNT_B),
    ];
    stack.startWorker();

    await waitFor(async () => everyAccount.received.length >= 3 && scoped.received.length >= 1);
    await sleep(500);
    expect(scoped.received.map((delivery) => delivery.event.data['id'])).toEqual([own]);
    expect(everyAccount.received.map((delivery) => delivery.event.data['id']).sort()).toEqual(
      [own, ...others].sort(),
    );
    expect(await stack.deliveriesOf(scopedEndpoint.id)).toHaveLength(1);
  });

  it('retries, and loses nothing, when Postgres refuses connections while an answer is being recorded', async () => {
    const target = await receiver(() => 'hang');
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['music.completed'] });
    target.secrets = [endpoint.secret];
    await stack.finishTask('music', 'completed');
    const logs: string[] = [];
    const admin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await admin.connect();
    try {
      // An attempt's lease is its time limit plus 5 s: a short limit, so the retry comes soon.
      stack.startWorker(logs, { timeoutMs: 1_000 });
      await waitFor(async () => target.received.length >= 1);
      // Postgres goes away while the endpoint holds the request: its answer cannot be recorded.
      await refuseConnections(admin, stack.databaseName);
      target.answerWith(() => 200);
      target.release(200);
      await waitFor(async () => logs.some((line) => line.includes('not recorded')), 10_000);
      await allowConnections(admin, stack.databaseName);

      await waitFor(async () => (await stack.deliveriesOf(endpoint.id))[0]?.status === 'delivered', 20_000);
      expect(target.received.length).toBeGreaterThanOrEqual(2);
      expect(new Set(target.received.map((delivery) => delivery.id)).size).toBe(1);
      expect(target.received.every((delivery) => delivery.verifiedByOpenAi)).toBe(true);
    } finally {
      await allowConnections(admin, stack.databaseName);
      await admin.end();
    }
  });

  it('deletes ended deliveries past their retention, with their attempts and their events', async () => {
    const target = await receiver();
    const endpoint = await stack.addEndpoint({ url: target.url, events: ['music.failed'] });
    target.secrets = [endpoint.secret];
    await stack.finishTask('music', 'failed');
    const worker = stack.startWorker();
    await waitFor(async () => (await stack.deliveriesOf(endpoint.id))[0]?.status === 'delivered');
    const [delivery] = await stack.deliveriesOf(endpoint.id);
    expect(await worker.sweepEnded()).toBe(0);

    // 31 days later (WEBHOOK_RETENTION_DAYS defaults to 30).
    await stack.pool.query(
      `update webhook_deliveries set updated_at = updated_at - interval '31 days' where id = $1`,
      [delivery.id],
    );
    expect(await worker.sweepEnded()).toBe(1);
    expect(await stack.deliveriesOf(endpoint.id)).toEqual([]);
    expect(await stack.attemptsOf(delivery.id)).toEqual([]);
    expect(await stack.prisma.webhookEvent.count({ where: { id: delivery.eventId } })).toBe(0);
  });
});
