import type { INestApplicationContext } from '@nestjs/common';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { pngOf } from './image-demo';
import {
  newVideoAccount,
  seedVideoDemo,
  simulatorCreatesByKey,
  startVideoWorker,
  type VideoDemo,
  type VideoObject,
} from './video-demo';

interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

/** A multipart body of text parts and files, written by hand so that tests control every byte. */
function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>) {
  const boundary = 'videos-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`
      : `form-data; name="${part.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Idempotency, ownership and bad input on the video routes: what a client may get wrong, and what others may not see. */
describe('video requests: idempotency, ownership, bad input', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const call = <T = VideoObject>(
    key: string,
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: Buffer; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer<T>> =>
    harness.request<T>(method, path, {
      ...options,
      headers: { authorization: `Bearer ${key}`, ...options.headers },
    });
  const holdsOf = async (accountId: string) =>
    (
      await harness.query<{ n: number }>('select count(*)::int as n from holds where account_id = $1', [
        accountId,
      ])
    )[0].n;

  describe('Idempotency-Key', () => {
    it('maps the same request under one key to one task and one upstream create', async () => {
      const account = await newVideoAccount(harness);
      const headers = { 'idempotency-key': 'order-17' };
      const body = { model: 'delta-2', prompt: 'One kite only', seconds: '8' };
      const first = await call(account.key, 'POST', '/v1/videos', { body, headers });
      // The same request as the gateway reads it: seconds as a number, fields in another order.
      const again = await call(account.key, 'POST', '/v1/videos', {
        body: { seconds: 8, prompt: 'One kite only', model: 'delta-2' },
        headers,
      });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body.id).toBe(first.body.id);
      expect(await holdsOf(account.accountId)).toBe(1);

      const until = Date.now() + 30_000;
      while ((await simulatorCreatesByKey(harness, first.body.id)) === undefined && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await simulatorCreatesByKey(harness, first.body.id)).toMatchObject({ requests: 1, created: 1 });
      const tasks = await harness.query<{ n: number }>(
        "select count(*)::int as n from tasks where idempotency_key = 'order-17'",
      );
      expect(tasks[0].n).toBe(1);
    });

    it('answers 409 for another request under a used key, holding nothing more', async () => {
      const account = await newVideoAccount(harness);
      const headers = { 'idempotency-key': 'order-18' };
      await call(account.key, 'POST', '/v1/videos', { body: { model: 'delta-2', prompt: 'A' }, headers });
      const conflict = await call<OpenAiError>(account.key, 'POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'B' },
        headers,
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({
        type: 'invalid_request_error',
        param: 'Idempotency-Key',
        code: 'idempotency_conflict',
      });
      const unified = await call(account.key, 'POST', '/v1/video/create', {
        body: { model: 'delta-2', prompt: 'A' },
        headers,
      });
      expect(unified.status).toBe(409);
      expect(await holdsOf(account.accountId)).toBe(1);
    });
  });

  describe('ownership', () => {
    it('answers 404 to another account on every route, and leaves the video as it was', async () => {
      const owner = await newVideoAccount(harness);
      const other = await newVideoAccount(harness);
      const video = (
        await call(owner.key, 'POST', '/v1/videos', { body: { model: 'delta-2', prompt: 'Mine' } })
      ).body;
      const { id } = video;

      const answers = await Promise.all([
        call<OpenAiError>(other.key, 'GET', `/v1/videos/${id}`),
        call<OpenAiError>(other.key, 'DELETE', `/v1/videos/${id}`),
        call<OpenAiError>(other.key, 'POST', `/v1/videos/${id}/remix`, { body: { prompt: 'Yours now' } }),
        call<OpenAiError>(other.key, 'GET', `/v1/videos/${id}/content`),
        call<OpenAiError>(other.key, 'GET', `/v1/video/query?id=${id}`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
      for (const answer of answers) expect(answer.body.error.type).toBe('invalid_request_error');
      const listed = await call<{ data: unknown[] }>(other.key, 'GET', '/v1/videos');
      expect(listed.body.data).toEqual([]);
      const after = await call<OpenAiError>(other.key, 'GET', `/v1/videos?after=${id}`);
      expect(after.status).toBe(400);

      const still = await call(owner.key, 'GET', `/v1/videos/${id}`);
      expect(still.status).toBe(200);
      expect(still.body.status).not.toBe('cancelled');
    });

    it('answers 404 for ids of another shape without looking', async () => {
      for (const id of ['bt_AAAAAAAAAAAAAAAAAAAAAA', 'video_%00', `video_${'A'.repeat(90)}`]) {
        expect((await call(demo.key, 'GET', `/v1/videos/${id}`)).status).toBe(404);
      }
    });
  });

  describe('bad input', () => {
    const png = pngOf(1280, 720);

    it.each([
      ['no prompt', { model: 'delta-2' }, 400, 'prompt'],
      ['no model', { prompt: 'A boat' }, 400, 'model'],
      [
        'seconds the family does not offer',
        { model: 'delta-2', prompt: 'A boat', seconds: '5' },
        400,
        'seconds',
      ],
      ['seconds beyond any family', { model: 'delta-2', prompt: 'A boat', seconds: '601' }, 400, 'seconds'],
      ['an unknown size', { model: 'delta-2', prompt: 'A boat', size: '999x999' }, 400, 'size'],
      [
        'a data: URI that is not Base64',
        { model: 'delta-2', prompt: 'A boat', image: 'data:image/png;base64,@@' },
        400,
        'image',
      ],
      ['NUL in the prompt', { model: 'delta-2', prompt: 'A\u0000boat' }, 400, 'prompt'],
      ['an unknown model', { model: 'no-such-video', prompt: 'A boat' }, 404, 'model'],
    ])('refuses %s (JSON) in the OpenAI-style envelope', async (_case, body, status, param) => {
      const answer = await call<OpenAiError>(demo.key, 'POST', '/v1/videos', { body });
      expect(answer.status).toBe(status);
      expect(answer.body.error).toMatchObject({
        param,
        type: 'invalid_request_error',
        message: expect.any(String),
      });
    });

    it.each([
      [
        'a non-image input_reference',
        multipart([
          { name: 'model', value: 'delta-2' },
          { name: 'prompt', value: 'A boat' },
          { name: 'input_reference', value: Buffer.from('just text'), filename: 'a.png', type: 'image/png' },
        ]),
        'input_reference[0]',
      ],
      [
        'a file in another field',
        multipart([
          { name: 'model', value: 'delta-2' },
          { name: 'prompt', value: 'A boat' },
          { name: 'image', value: png, filename: 'a.png', type: 'image/png' },
        ]),
        'image',
      ],
      [
        'a malformed body',
        {
          body: Buffer.from(
            '--videos-test-boundary\r\nContent-Disposition: form-data; name="model"\r\n\r\ndelta',
          ),
          contentType: 'multipart/form-data; boundary=videos-test-boundary',
        },
        '(body)',
      ],
      [
        'metadata that is not JSON',
        multipart([
          { name: 'model', value: 'delta-2' },
          { name: 'prompt', value: 'A boat' },
          { name: 'metadata', value: '{oops' },
        ]),
        'metadata',
      ],
    ])('refuses %s (multipart) with a 400', async (_case, form, param) => {
      const answer = await call<OpenAiError>(demo.key, 'POST', '/v1/videos', {
        rawBody: form.body,
        headers: { 'content-type': form.contentType },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe(param);
    });

    it('refuses a unified request without images as URLs or data: URIs, and a bad Idempotency-Key', async () => {
      const unified = await call<OpenAiError>(demo.key, 'POST', '/v1/video/create', {
        body: { model: 'delta-2', prompt: 'A boat', images: ['ftp://files.test/a.png'] },
      });
      expect([unified.status, unified.body.error.param]).toEqual([400, 'images[0]']);
      const longKey = await call<OpenAiError>(demo.key, 'POST', '/v1/videos', {
        body: { model: 'delta-2', prompt: 'A boat' },
        headers: { 'idempotency-key': 'k'.repeat(256) },
      });
      expect([longKey.status, longKey.body.error.param]).toEqual([400, 'Idempotency-Key']);
      const badLimit = await call<OpenAiError>(demo.key, 'GET', '/v1/videos?limit=0');
      expect([badLimit.status, badLimit.body.error.param]).toEqual([400, 'limit']);
    });

    it('held and charged nothing for any of them, and logged each refused create', async () => {
      await harness.settled();
      expect(await holdsOf(demo.accountId)).toBe(0);
      expect(await harness.ledgerTotals(demo.accountId)).toMatchObject({ capture: 0n });
      const refused = await harness.query<{ n: number }>(
        "select count(*)::int as n from request_logs where key_id = $1 and end_reason = 'refused' and cost_micros = 0",
        [demo.keyId],
      );
      // Every create above but the one refused for its Idempotency-Key header, read before the request.
      expect(refused[0].n).toBe(13);
    });
  });
});
