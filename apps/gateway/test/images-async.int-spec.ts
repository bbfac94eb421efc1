import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createPgPool, createPrismaClient, type PrismaClient } from '@gateway/db';
import { waitFor } from '@gateway/testing';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { startTestDeliveryWorker, WebhookReceiver } from '@gateway/testing-workers/webhooks';
import type { WebhookDeliveryWorker } from '@gateway/webhooks';
import type { Pool } from 'pg';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import {
  base64ImageSize,
  downloadedImage,
  IMAGE_PRICE_MICROS,
  imageHarnessEnv,
  openAiClient,
  pngOf,
  seedImageDemo,
  type ImageDemo,
} from './image-demo';

interface ImageTask {
  id: string;
  object: string;
  status: string;
  created_at: number;
  created?: number;
  data?: Array<{ url?: string; b64_json?: string; revised_prompt?: string }>;
  error?: { code: string; message: string } | null;
  cost_micros?: string | null;
}

const ASYNC = { prefer: 'respond-async' };

/**
 * `Prefer: respond-async` on the image routes: a 202 task at once, the upstream call made by
 * worker-image, the images delivered by polling and by webhook, charged as the synchronous route charges.
 */
describe('asynchronous image jobs', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let pool: Pool;
  let prisma: PrismaClient;
  let delivery: WebhookDeliveryWorker;
  let receiver: WebhookReceiver;

  const workerEnv = () => {
    const { config } = harness;
    return {
      DATABASE_URL: config.databaseUrl,
      REDIS_URL: config.redisUrl,
      REDIS_PREFIX: config.redisPrefix,
      ADMIN_TOKEN: config.adminToken,
      MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
      OBJECT_STORE_DIR: objectStoreDir,
      SSRF_ALLOW_HOSTS: `127.0.0.1,${new URL(harness.simulatorUrl).host}`,
      LOG_LEVEL: 'silent',
    };
  };
  const startWorker = async () =>
    NestFactory.createApplicationContext(ImageWorkerUnderTest.forEnvironment(workerEnv()), { logger: false });
  const objectStoreDir = imageHarnessEnv().OBJECT_STORE_DIR;

  const post = (demo: ImageDemo, body: Record<string, unknown>, headers: Record<string, string> = ASYNC) =>
    harness.request<ImageTask & { error?: { message: string; code: string } }>(
      'POST',
      '/v1/images/generations',
      {
        body: { model: 'img-1', ...body },
        headers: { authorization: `Bearer ${demo.key}`, ...headers },
      },
    );
  const getTask = (demo: ImageDemo, id: string) =>
    harness.request<ImageTask>('GET', `/v1/images/generations/${id}`, {
      headers: { authorization: `Bearer ${demo.key}` },
    });
  const holdOf = async (taskId: string) =>
    (await harness.query<{ status: string }>('select status from holds where request_id = $1', [taskId]))[0]
      ?.status;
  /**
   * A job's GET once it ended and its hold settled. A failed job reads `cost_micros: "0"` from its
   * terminal transition on, a moment before the worker's settlement writes its log row: the wait covers
   * both, so what a test reads next is the settled books.
   */
  const finished = async (demo: ImageDemo, id: string): Promise<HttpAnswer<ImageTask>> => {
    let last: HttpAnswer<ImageTask> | undefined;
    await waitFor(async () => {
      last = await getTask(demo, id);
      return (
        last.body.status !== 'queued' &&
        last.body.status !== 'processing' &&
        last.body.cost_micros != null &&
        (await holdOf(id)) === 'settled'
      );
    }, 30_000);
    return last as HttpAnswer<ImageTask>;
  };

  /**
   * The demo account's one job ended on the channel whose answer ended it (earlier tests' channels
   * serve the model too): named on the task and on its log row, which ends `upstream_error`; the hold
   * settled, nothing captured.
   */
  const expectEndedOnItsChannel = async (demo: ImageDemo) => {
    const [task] = await harness.query<{ id: string; channel_id: string | null }>(
      'select id, channel_id from tasks where account_id = $1',
      [demo.accountId],
    );
    expect(task.channel_id).not.toBeNull();
    expect(
      await harness.query(
        'select end_reason, channel_id, cost_micros::text from request_logs where request_id = $1',
        [task.id],
      ),
    ).toEqual([{ end_reason: 'upstream_error', channel_id: task.channel_id, cost_micros: '0' }]);
    expect(await holdOf(task.id)).toBe('settled');
    expect((await harness.settledBooks(demo.accountId)).captures).toBe(0n);
  };

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      OBJECT_STORE_DIR: objectStoreDir,
      SSRF_ALLOW_HOSTS: '127.0.0.1',
      PUBLIC_BASE_URL: 'https://gateway.example.test',
      WEBHOOK_RETRY_SCHEDULE: '0s,200ms,200ms',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    worker = await startWorker();
    pool = createPgPool(harness.config.databaseUrl, 4);
    prisma = createPrismaClient(pool);
    delivery = startTestDeliveryWorker({ pool, prisma, config: harness.config });
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await delivery?.stop();
    await worker?.close();
    await prisma?.$disconnect();
    await pool?.end();
    await harness?.close();
  });

  it('answers the SDK 202 with a task; polling gives the images, as url and as b64_json', async () => {
    const demo = await seedImageDemo(harness);
    const client = openAiClient(harness.url, demo.key);

    const { data: created, response } = await client.images
      .generate(
        { model: 'img-1', prompt: 'A lighthouse at dusk', size: '1024x1024', response_format: 'b64_json' },
        { headers: { Prefer: 'respond-async' } },
      )
      .withResponse();

    expect(response.status).toBe(202);
    const task = created as unknown as ImageTask;
    expect(task).toMatchObject({ object: 'image.task', status: 'queued' });
    expect(task.id).toMatch(/^img_/);
    expect(response.headers.get('location')).toBe(`/v1/images/generations/${task.id}`);
    expect(response.headers.get('preference-applied')).toBe('respond-async');

    const done = await finished(demo, task.id);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: task.id,
      status: 'completed',
      cost_micros: IMAGE_PRICE_MICROS.toString(),
    });
    expect(done.body.created).toBe(task.created_at);
    expect(done.body.data).toHaveLength(1);
    expect(base64ImageSize(done.body.data?.[0].b64_json as string)).toEqual({ width: 1024, height: 1024 });

    const asUrl = await post(demo, { prompt: 'A lighthouse at dawn', size: '1024x1024' });
    expect(asUrl.status).toBe(202);
    const urlDone = await finished(demo, asUrl.body.id);
    const url = urlDone.body.data?.[0].url as string;
    expect(url).toMatch(/^https:\/\/gateway\.example\.test\/files\//);
    const local = url.replace('https://gateway.example.test', harness.url);
    expect(await downloadedImage(local)).toMatchObject({ width: 1024, height: 1024 });

    const neutral = await harness.request<{
      kind: string;
      status: string;
      cost_micros: string;
      result: unknown;
    }>('GET', `/v1/tasks/${asUrl.body.id}`, { headers: { authorization: `Bearer ${demo.key}` } });
    expect(neutral.body).toMatchObject({
      kind: 'image',
      status: 'completed',
      cost_micros: IMAGE_PRICE_MICROS.toString(),
      result: { urls: [url] },
    });
    // Its event stream: the terminal event of a finished task, then the end of the stream.
    const events = await fetch(`${harness.url}/v1/tasks/${asUrl.body.id}/events`, {
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = await events.text();
    expect(stream).toMatch(/event: completed\n/);
    expect(stream).toContain(`"id":"${asUrl.body.id}"`);
  });

  it('charges what the synchronous route charges for the same request (ledger captures)', async () => {
    const syncDemo = await seedImageDemo(harness);
    const asyncDemo = await seedImageDemo(harness);
    const body = { prompt: 'Three boats', n: 3, size: '1024x1024', response_format: 'b64_json' };

    const sync = await post(syncDemo, body, {});
    expect(sync.status).toBe(200);
    const job = await post(asyncDemo, body);
    expect(job.status).toBe(202);
    const done = await finished(asyncDemo, job.body.id);
    expect(done.body.data).toHaveLength(3);

    const syncBooks = await harness.settledBooks(syncDemo.accountId);
    const asyncBooks = await harness.settledBooks(asyncDemo.accountId);
    expect(asyncBooks.captures).toBe(3n * IMAGE_PRICE_MICROS);
    expect(asyncBooks.captures).toBe(syncBooks.captures);
    expect(asyncBooks.balance).toBe(syncBooks.balance);
    expect(await holdOf(job.body.id)).toBe('settled');
  });

  it('another account, a /bt id and a malformed id are the same 404', async () => {
    const owner = await seedImageDemo(harness);
    const other = await seedImageDemo(harness);
    const job = await post(owner, { prompt: 'A secret garden' });
    expect(job.status).toBe(202);

    for (const id of [
      job.body.id,
      'bt_AAAAAAAAAAAAAAAAAAAAAA',
      'img_x',
      `img_${'A'.repeat(80)}`,
      'img_%00',
    ]) {
      const answer = await getTask(other, id);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ error: { code: 'not_found' } });
    }
    await finished(owner, job.body.id);
  });
  it('delivers image.completed with the images as its GET renders them, and image.failed with the hold released', async () => {
    const endpoint = await harness.adminOk<{ id: string; secret: string }>('POST', '/admin/webhooks', {
      url: receiver.url,
      events: ['image.completed', 'image.failed'],
    });
    receiver.secrets = [endpoint.secret];
    const demo = await seedImageDemo(harness, 10n * IMAGE_PRICE_MICROS);

    const good = await post(demo, { prompt: 'A red kite', size: '1024x1024' });
    const bad = await post(demo, { prompt: 'A kite [[sim error=bad_request]]' });
    expect([good.status, bad.status]).toEqual([202, 202]);
    const [goodDone, badDone] = [await finished(demo, good.body.id), await finished(demo, bad.body.id)];

    expect(badDone.body).toMatchObject({
      status: 'failed',
      cost_micros: '0',
      error: { code: 'upstream_bad_request' },
    });
    expect(badDone.body.data).toBeUndefined();
    expect(await holdOf(bad.body.id)).toBe('settled');
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(IMAGE_PRICE_MICROS);
    expect(books.balance).toBe(9n * IMAGE_PRICE_MICROS);

    const eventOf = (taskId: string) =>
      receiver.received.filter((message) => (message.event.data as { id?: string }).id === taskId);
    await waitFor(async () => eventOf(good.body.id).length > 0 && eventOf(bad.body.id).length > 0, 30_000);
    const [completed] = eventOf(good.body.id);
    const [failed] = eventOf(bad.body.id);
    expect(completed.event.type).toBe('image.completed');
    expect(completed.verifiedByOpenAi && completed.verifiedByStandardWebhooks).toBe(true);
    expect(completed.event.data).toEqual(goodDone.body);
    expect(failed.event.type).toBe('image.failed');
    expect(failed.event.data).toEqual(badDone.body);
    await sleep(300);
    expect(eventOf(good.body.id)).toHaveLength(1);
    expect(eventOf(bad.body.id)).toHaveLength(1);
  });

  it('fails over to a second channel when the first is overloaded, and charges once', async () => {
    const demo = await seedImageDemo(harness);
    const overloaded = await harness.createChannel({
      type: 'compat',
      name: 'draw-2-overloaded',
      baseUrl: `${harness.simulatorUrl}/@error=overload;status=503`,
      secret: 'sim-compat-key',
      models: [{ model: 'draw-2' }],
      priority: 10,
    });

    const job = await post(demo, { model: 'draw-2', prompt: 'A harbour', response_format: 'b64_json' });
    expect(job.status).toBe(202);
    const done = await finished(demo, job.body.id);
    expect(done.body).toMatchObject({ status: 'completed', cost_micros: IMAGE_PRICE_MICROS.toString() });
    const [row] = await harness.query<{ channel_id: string }>('select channel_id from tasks where id = $1', [
      job.body.id,
    ]);
    expect(row.channel_id).not.toBe(overloaded);
    // Two upstream calls for one job: the overloaded channel's (refused 503), then a healthy one's.
    const journal = (await (
      await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`)
    ).json()) as Array<{ body: string }>;
    expect(journal.filter((entry) => entry.body.includes('A harbour'))).toHaveLength(2);
    expect((await harness.settledBooks(demo.accountId)).captures).toBe(IMAGE_PRICE_MICROS);
  });

  it('makes the images of a client that disconnects at once, and charges them once', async () => {
    const demo = await seedImageDemo(harness);
    const body = JSON.stringify({
      model: 'img-1',
      prompt: 'A client that leaves',
      response_format: 'b64_json',
    });
    await new Promise<void>((resolve) => {
      const outgoing = httpRequest(`${harness.url}/v1/images/generations`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${demo.key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          prefer: 'respond-async',
        },
      });
      // Gone as soon as the gateway starts to answer: the task's id is never read.
      outgoing.on('response', () => {
        outgoing.destroy();
        resolve();
      });
      outgoing.on('error', () => resolve());
      outgoing.end(body);
    });

    let taskId: string | undefined;
    await waitFor(async () => {
      const rows = await harness.query<{ id: string }>('select id from tasks where account_id = $1', [
        demo.accountId,
      ]);
      taskId = rows[0]?.id;
      return taskId !== undefined;
    }, 10_000);
    const done = await finished(demo, taskId as string);
    expect(done.body).toMatchObject({ status: 'completed', cost_micros: IMAGE_PRICE_MICROS.toString() });
    expect(done.body.data?.[0].b64_json).toEqual(expect.any(String));
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(IMAGE_PRICE_MICROS);
    const captures = await harness.query<{ amount: string }>(
      "select amount::text from ledger_entries where request_id = $1 and kind = 'capture'",
      [taskId],
    );
    expect(captures).toEqual([{ amount: IMAGE_PRICE_MICROS.toString() }]);
  });

  it.each([
    ['absent', {}],
    ['unknown', { prefer: 'return=minimal' }],
    ['misspelt', { prefer: 'respond-asynchronously' }],
    ['malformed', { prefer: ';;==,,"respond-async' }],
    ['quoted', { prefer: '"respond-async"' }],
  ])('a Prefer header %s is ignored (RFC 7240): the images in the same response', async (_name, headers) => {
    const demo = await seedImageDemo(harness);
    const answer = await post(demo, { prompt: 'A plain request', response_format: 'b64_json' }, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('preference-applied')).toBeNull();
    expect(answer.body.data).toHaveLength(1);
    expect(await harness.query('select id from tasks where account_id = $1', [demo.accountId])).toEqual([]);
  });

  it('refuses as the synchronous route does, before any task or hold: bad body, unknown model, no credit', async () => {
    const demo = await seedImageDemo(harness, 1n);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ prompt: 'x', n: 'many' }, 400],
      [{ prompt: 'x', model: 'no-such-model' }, 404],
      [{ prompt: 'x', model: 'img-1', size: '7x7' }, 400],
      [{ prompt: 'A costly image' }, 402],
    ];
    for (const [body, status] of cases) {
      const answer = await post(demo, body);
      expect(answer.status).toBe(status);
      expect(answer.headers.get('preference-applied')).toBeNull();
    }
    expect(await harness.query('select id from tasks where account_id = $1', [demo.accountId])).toEqual([]);
    expect(
      await harness.query('select request_id from holds where account_id = $1', [demo.accountId]),
    ).toEqual([]);
  });

  it('runs an edit (multipart) as a job too', async () => {
    const demo = await seedImageDemo(harness);
    const form = new FormData();
    form.set('model', 'img-1');
    form.set('prompt', 'Add a moon');
    form.set('response_format', 'b64_json');
    form.set('image', new Blob([pngOf(64, 64)], { type: 'image/png' }), 'in.png');
    const response = await fetch(`${harness.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.key}`, prefer: 'respond-async' },
      body: form,
    });
    expect(response.status).toBe(202);
    const task = (await response.json()) as ImageTask;
    expect(response.headers.get('location')).toBe(`/v1/images/generations/${task.id}`);
    const done = await finished(demo, task.id);
    expect(done.body).toMatchObject({ status: 'completed', cost_micros: IMAGE_PRICE_MICROS.toString() });
    expect(done.body.data?.[0].b64_json).toEqual(expect.any(String));
  });
  it('never overspends: of 10 concurrent jobs on credit for 3, 3 are held and made, 7 refused 402', async () => {
    const demo = await seedImageDemo(harness, 3n * IMAGE_PRICE_MICROS);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        post(demo, { prompt: `Boat ${index}`, response_format: 'b64_json' }),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 202);
    expect(accepted).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(7);
    for (const answer of accepted) {
      expect((await finished(demo, answer.body.id)).body.status).toBe('completed');
    }
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(3n * IMAGE_PRICE_MICROS);
    expect(books.balance).toBe(0n);
  });

  it('releases on a re-run the hold of a job an operator cancelled before its release, its log row ending cancelled', async () => {
    const demo = await seedImageDemo(harness);
    // No worker while the job is created and cancelled: its step job waits in the queue.
    await worker.close();
    let created: HttpAnswer<ImageTask>;
    let taskId: string;
    try {
      created = await post(demo, { prompt: 'A job cancelled in between', response_format: 'b64_json' });
      expect(created.status).toBe(202);
      [{ id: taskId }] = await harness.query<{ id: string }>('select id from tasks where account_id = $1', [
        demo.accountId,
      ]);
      // An operator's cancel won its compare-and-swap, then its process died before the release.
      const cancelled = await harness.query(
        "update tasks set status = 'cancelled', failure_reason = 'cancelled by admin: test' where id = $1 and status = 'queued' returning id",
        [taskId],
      );
      expect(cancelled).toHaveLength(1);
      expect(await holdOf(taskId)).toBe('open');
    } finally {
      worker = await startWorker();
    }
    await waitFor(async () => (await holdOf(taskId)) === 'settled', 30_000);

    expect(
      await harness.query('select end_reason, cost_micros::text from request_logs where request_id = $1', [
        taskId,
      ]),
    ).toEqual([{ end_reason: 'cancelled', cost_micros: '0' }]);
    expect((await harness.settledBooks(demo.accountId)).captures).toBe(0n);
    expect((await getTask(demo, created.body.id)).body).toMatchObject({ status: 'cancelled' });
  });

  it('ends a job its upstream failed upstream_error, its log row and task naming the channel', async () => {
    const demo = await seedImageDemo(harness);
    const bad = await post(demo, { prompt: 'A kite [[sim error=bad_request]]', response_format: 'b64_json' });
    expect(bad.status).toBe(202);
    const done = await finished(demo, bad.body.id);
    expect(done.body).toMatchObject({
      status: 'failed',
      cost_micros: '0',
      error: { code: 'upstream_bad_request' },
    });

    await expectEndedOnItsChannel(demo);
  });

  it('ends a job whose images could not be retrieved upstream_error naming the channel, as the synchronous route logs it', async () => {
    const demo = await seedImageDemo(harness);
    // The simulator's result links expire as they are handed out: worker-image cannot download them.
    const lost = await post(demo, {
      model: 'draw-2',
      prompt: 'A kite [[sim url_ttl=0]]',
      response_format: 'url',
    });
    expect(lost.status).toBe(202);
    const done = await finished(demo, lost.body.id);
    expect(done.body).toMatchObject({ status: 'failed', cost_micros: '0' });
    expect(done.body.error?.message).toMatch(/could not be retrieved; nothing was charged/);

    await expectEndedOnItsChannel(demo);
  });

  it('settles on a re-run a job a channel failed before its settlement, its log row ending upstream_error', async () => {
    const demo = await seedImageDemo(harness);
    await worker.close();
    let taskId: string;
    try {
      const created = await post(demo, { prompt: 'A job failed in between', response_format: 'b64_json' });
      expect(created.status).toBe(202);
      [{ id: taskId }] = await harness.query<{ id: string }>('select id from tasks where account_id = $1', [
        demo.accountId,
      ]);
      // A run's failure transition (naming the channel that answered) won, then its process died before
      // the settlement.
      const failed = await harness.query(
        "update tasks set status = 'failed', channel_id = $2, failure_reason = 'upstream_bad_request: refused' where id = $1 and status = 'queued' returning id",
        [taskId, demo.channelId],
      );
      expect(failed).toHaveLength(1);
      expect(await holdOf(taskId)).toBe('open');
    } finally {
      worker = await startWorker();
    }
    await waitFor(async () => (await holdOf(taskId)) === 'settled', 30_000);

    expect(
      await harness.query(
        'select end_reason, channel_id, cost_micros::text from request_logs where request_id = $1',
        [taskId],
      ),
    ).toEqual([{ end_reason: 'upstream_error', channel_id: demo.channelId, cost_micros: '0' }]);
    expect((await harness.settledBooks(demo.accountId)).captures).toBe(0n);
  });

  it.each([
    ['10 KB of unknown preferences before it', `${'x=1,'.repeat(2_500)}respond-async`, 202],
    ['10 KB of one unknown preference', 'x'.repeat(10_000), 200],
    ['control-free garbage with quotes and semicolons', '";;;";="",respond-async;;', 202],
  ])('a hostile Prefer header (%s) is read without a 5xx', async (_case, prefer, status) => {
    const demo = await seedImageDemo(harness);
    const answer = await post(demo, { prompt: 'A fox', response_format: 'b64_json' }, { prefer });
    expect(answer.status).toBe(status);
    if (status === 202) await finished(demo, answer.body.id);
  });
});
