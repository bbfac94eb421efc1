import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { seedAlphaDemo, type AlphaDemo } from './alpha-demo';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, seedImageDemo } from './image-demo';
import { seedVideoDemo, startVideoWorker, videoClient, untilVideoEnds, type VideoDemo } from './video-demo';

let now = Date.parse('2026-11-29T10:00:10Z');
const clock = { now: () => now };

interface ErrorBody {
  error?: { code: string; message: string };
}

/** Budgets on image requests and outstanding-task limits on video tasks, end to end. */
describe('governance: budgets on images, outstanding tasks and task costs', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let videos: VideoDemo;
  let alpha: AlphaDemo;
  let imageAccount: string;
  let worker: INestApplicationContext | undefined;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    gateway = await harness.startInstance({}, { clock });
    imageAccount = (await seedImageDemo(harness)).accountId;
    videos = await seedVideoDemo(harness);
    alpha = await seedAlphaDemo(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  const image = (key: string) =>
    harness.request<ErrorBody>('POST', '/v1/images/generations', {
      baseUrl: gateway.url,
      body: { model: 'draw-2', prompt: 'A lighthouse', size: '512x512', response_format: 'b64_json' },
      headers: { authorization: `Bearer ${key}` },
    });

  const createVideo = (key: string, prompt = 'Waves') =>
    harness.request<ErrorBody & { id?: string }>('POST', '/v1/videos', {
      baseUrl: gateway.url,
      body: { model: 'delta-2', prompt, seconds: '4' },
      headers: { authorization: `Bearer ${key}` },
    });

  it('a daily budget covering 10 images admits 10 of 50 concurrent image requests, and resets the next day', async () => {
    const { key, id } = await harness.createKey(imageAccount, {
      budget: { amountMicros: (10n * IMAGE_PRICE_MICROS).toString(), period: 'day' },
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => image(key)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(refused).toHaveLength(40);
    expect(refused[0].body.error?.code).toBe('budget_exceeded');
    expect(refused[0].body.error?.message).toContain('resets at 2026-11-30T00:00:00.000Z');
    await harness.settled();
    const logged = await harness.query<{ end_reason: string; n: string }>(
      'SELECT end_reason, count(*)::text AS n FROM request_logs WHERE key_id = $1 GROUP BY end_reason',
      [id],
    );
    expect(logged).toEqual(expect.arrayContaining([{ end_reason: 'budget_exceeded', n: '40' }]));
    // Refused before any hold: only the 10 admitted requests reached the ledger.
    const captures = await harness.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_entries l JOIN request_logs r ON r.request_id = l.request_id WHERE r.key_id = $1 AND l.kind = 'capture'",
      [id],
    );
    expect(captures).toEqual([{ n: '10' }]);

    expect((await image(key)).status).toBe(402);
    now = Date.parse('2026-11-30T00:00:05Z');
    expect((await image(key)).status).toBe(200);
  });

  it('outstanding tasks: a key admits its limit of unfinished videos, then more once they end, each showing its cost', async () => {
    const { key } = await harness.createKey(videos.accountId, { limits: { outstandingTasks: 2 } });
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => createVideo(key, `burst ${index}`)),
    );
    const created = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(created).toHaveLength(2);
    expect(refused).toHaveLength(4);
    expect(refused[0].body.error?.code).toBe('rate_limit_exceeded');
    expect(refused[0].body.error?.message).toContain('outstandingTasks');
    expect(refused[0].headers.get('retry-after')).not.toBeNull();

    worker = await startVideoWorker(harness);
    const client = videoClient(gateway.url, key);
    for (const answer of created) {
      const ended = (await untilVideoEnds(client, answer.body.id ?? '')) as {
        status: string;
        cost_micros?: string;
      };
      expect(ended.status).toBe('completed');
      await waitFor(async () => {
        const seen = (await client.videos.retrieve(answer.body.id ?? '')) as { cost_micros?: string };
        return seen.cost_micros !== undefined;
      });
      const seen = (await client.videos.retrieve(answer.body.id ?? '')) as { cost_micros?: string };
      const capture = await harness.query<{ amount: string }>(
        "SELECT amount::text FROM ledger_entries WHERE kind = 'capture' AND request_id = $1",
        [answer.body.id],
      );
      expect(capture).toEqual([{ amount: seen.cost_micros }]);
    }
    await waitFor(async () => (await createVideo(key, 'after')).status === 200);
  });

  it('an account limit on outstanding tasks counts all its keys together', async () => {
    const accountId = await harness.createAccount(1_000_000_000n);
    await harness.adminOk('PATCH', `/admin/accounts/${accountId}`, { limits: { outstandingTasks: 1 } });
    const one = await harness.createKey(accountId);
    const two = await harness.createKey(accountId);
    await worker?.close();
    worker = undefined;
    expect((await createVideo(one.key)).status).toBe(200);
    const refused = await createVideo(two.key);
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toContain("the account's outstandingTasks");
  });

  it('a family dialect (alpha): 429 in its envelope with Retry-After and the headers, 402 likewise', async () => {
    const submit = (key: string) =>
      harness.request<{ code?: number; reason?: string; message?: string }>(
        'POST',
        '/alpha/ent/v2/text2video',
        {
          baseUrl: gateway.url,
          body: { model: 'alphaq2-pro', prompt: 'A fox in snow', duration: 5, resolution: '720p' },
          headers: { authorization: `Bearer ${key}` },
        },
      );
    const limited = await harness.createKey(alpha.accountId, { limits: { requestsPerMinute: 1 } });
    const first = await submit(limited.key);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const refused = await submit(limited.key);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 429, reason: 'TooManyRequests' });
    expect(refused.body.message).toContain('rate_limit_exceeded');
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.headers.get('x-ratelimit-limit-requests')).toBe('1');

    const budgeted = await harness.createKey(alpha.accountId, {
      budget: { amountMicros: '1', period: 'month' },
    });
    const overBudget = await submit(budgeted.key);
    expect(overBudget.status).toBe(402);
    expect(overBudget.body).toMatchObject({ code: 402, reason: 'CreditInsufficient' });
    expect(overBudget.body.message).toContain('budget_exceeded');
  });
});
