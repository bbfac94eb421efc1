import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { waitFor } from '@gateway/testing';
import { ImageWorkerUnderTest } from '@gateway/testing-workers';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, pngOf, seedImageDemo, type ImageDemo } from './image-demo';

interface ImageTask {
  id: string;
  object: string;
  status: string;
  data?: Array<{ url?: string; b64_json?: string }>;
  cost_micros?: string | null;
  error?: { message: string; type: string; code: string; param?: string };
}

/**
 * `Idempotency-Key` on asynchronous image jobs, as on a video create: the same key with the same
 * request answers the first job (no second hold, no second upstream call, one capture); the key with
 * another request is the video route's 409.
 */
describe('asynchronous image jobs under an Idempotency-Key', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  const { OBJECT_STORE_DIR } = imageHarnessEnv();

  beforeAll(async () => {
    harness = await GatewayHarness.start({ OBJECT_STORE_DIR });
    const { config } = harness;
    worker = await NestFactory.createApplicationContext(
      ImageWorkerUnderTest.forEnvironment({
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        REDIS_PREFIX: config.redisPrefix,
        ADMIN_TOKEN: config.adminToken,
        MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
        OBJECT_STORE_DIR,
        LOG_LEVEL: 'silent',
      }),
      { logger: false },
    );
  });

  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  const post = (demo: ImageDemo, body: Record<string, unknown>, idempotencyKey?: string) =>
    harness.request<ImageTask>('POST', '/v1/images/generations', {
      body: { model: 'img-1', response_format: 'b64_json', ...body },
      headers: {
        authorization: `Bearer ${demo.key}`,
        prefer: 'respond-async',
        ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
      },
    });
  const finished = async (demo: ImageDemo, id: string): Promise<ImageTask> => {
    let last: HttpAnswer<ImageTask> | undefined;
    await waitFor(async () => {
      last = await harness.request<ImageTask>('GET', `/v1/images/generations/${id}`, {
        headers: { authorization: `Bearer ${demo.key}` },
      });
      // Ended and settled: the worker settles the hold after it writes the job's end.
      const ended = last.body.status === 'completed' || last.body.status === 'failed';
      return ended && last.body.cost_micros != null;
    }, 30_000);
    return (last as HttpAnswer<ImageTask>).body;
  };
  const tasksOf = (demo: ImageDemo) =>
    harness.query<{ id: string }>('select id from tasks where account_id = $1', [demo.accountId]);
  const holdsOf = (demo: ImageDemo) =>
    harness.query<{ request_id: string }>('select request_id from holds where account_id = $1', [
      demo.accountId,
    ]);
  const upstreamGenerations = async () => {
    const stats = (await (await fetch(`${harness.simulatorUrl}/__sim/stats`)).json()) as {
      byRoute: Record<string, number>;
    };
    return stats.byRoute['compat:imageGenerations'] ?? 0;
  };

  it('answers a repeated request with the first job, holding, calling and charging once', async () => {
    const demo = await seedImageDemo(harness);
    const callsBefore = await upstreamGenerations();
    const body = { prompt: 'A lighthouse [[sim latency=300]]', size: '1024x1024' };

    const first = await post(demo, body, 'lighthouse-1');
    expect(first.status).toBe(202);
    // The same request with its fields in another order is the same request.
    const again = await post(demo, { size: '1024x1024', prompt: body.prompt }, 'lighthouse-1');
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id: first.body.id, object: 'image.task' });
    expect(again.headers.get('location')).toBe(`/v1/images/generations/${first.body.id}`);
    expect(await holdsOf(demo)).toEqual([{ request_id: first.body.id }]);

    expect(await finished(demo, first.body.id)).toMatchObject({ status: 'completed' });
    // Once done, the repeat answers the job with its images, and still makes nothing.
    const afterwards = await post(demo, body, 'lighthouse-1');
    expect(afterwards.body).toMatchObject({
      id: first.body.id,
      status: 'completed',
      cost_micros: IMAGE_PRICE_MICROS.toString(),
      data: [{ b64_json: expect.any(String) }],
    });

    expect(await tasksOf(demo)).toEqual([{ id: first.body.id }]);
    expect(await holdsOf(demo)).toEqual([{ request_id: first.body.id }]);
    expect(await upstreamGenerations()).toBe(callsBefore + 1);
    expect((await harness.settledBooks(demo.accountId)).captures).toBe(IMAGE_PRICE_MICROS);
  });

  it('refuses the key with another request as the video route does: 409 idempotency_conflict, nothing held', async () => {
    const demo = await seedImageDemo(harness);
    const first = await post(demo, { prompt: 'A red kite' }, 'kite-1');
    expect(first.status).toBe(202);

    const otherPrompt = await post(demo, { prompt: 'A blue kite' }, 'kite-1');
    const otherFormat = await post(demo, { prompt: 'A red kite', response_format: 'url' }, 'kite-1');
    // The video route, given the same key (its task is an image job: another request), answers so too.
    const video = await harness.request<ImageTask>('POST', '/v1/videos', {
      body: { model: 'delta-2', prompt: 'A red kite' },
      headers: { authorization: `Bearer ${demo.key}`, 'idempotency-key': 'kite-1' },
    });

    expect(video.status).toBe(409);
    expect(video.body.error).toMatchObject({ code: 'idempotency_conflict', param: 'Idempotency-Key' });
    for (const refused of [otherPrompt, otherFormat]) {
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 409, body: video.body });
    }
    await finished(demo, first.body.id);
    expect(await tasksOf(demo)).toEqual([{ id: first.body.id }]);
    expect(await holdsOf(demo)).toEqual([{ request_id: first.body.id }]);
    await harness.settledBooks(demo.accountId);
  });

  it('makes one job of concurrent repeats: the others answer it and release what they held', async () => {
    const demo = await seedImageDemo(harness);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(demo, { prompt: 'A race of boats' }, 'race-1')),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(202));
    const ids = new Set(answers.map((answer) => answer.body.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    expect(await finished(demo, id)).toMatchObject({ status: 'completed' });
    expect(await tasksOf(demo)).toEqual([{ id }]);
    // A repeat that lost the race to write the row had taken a hold: released, nothing captured.
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(IMAGE_PRICE_MICROS);
  });

  it('keys edits too, by their images: another image under the same key is another request', async () => {
    const demo = await seedImageDemo(harness);
    const edit = (image: Buffer) => {
      const form = new FormData();
      form.set('model', 'img-1');
      form.set('prompt', 'Add a moon');
      form.set('response_format', 'b64_json');
      form.set('image', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'in.png');
      return fetch(`${harness.url}/v1/images/edits`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${demo.key}`,
          prefer: 'respond-async',
          'idempotency-key': 'moon-1',
        },
        body: form,
      });
    };
    const first = await edit(pngOf(64, 64));
    const same = await edit(pngOf(64, 64));
    const other = await edit(pngOf(32, 32));

    expect([first.status, same.status, other.status]).toEqual([202, 202, 409]);
    const { id } = (await first.json()) as ImageTask;
    expect(((await same.json()) as ImageTask).id).toBe(id);
    await finished(demo, id);
    expect(await tasksOf(demo)).toEqual([{ id }]);
    await harness.settledBooks(demo.accountId);
  });

  it('refuses a malformed key before anything is held', async () => {
    const demo = await seedImageDemo(harness);
    const answer = await post(demo, { prompt: 'A long key' }, 'k'.repeat(256));

    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ param: 'Idempotency-Key' });
    expect(await tasksOf(demo)).toEqual([]);
    expect(await holdsOf(demo)).toEqual([]);
  });
});
