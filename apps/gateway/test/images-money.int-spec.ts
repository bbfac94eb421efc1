import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { IMAGE_PRICE_MICROS, imageHarnessEnv, seedImageDemo, type ImageDemo } from './image-demo';

interface ImageAnswer {
  data?: Array<{ b64_json?: string }>;
  error?: { message: string; type: string; code: string };
}

describe('money of image requests', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
  });
  afterAll(() => harness.close());

  function generate(demo: ImageDemo, body: Record<string, unknown>) {
    return harness.request<ImageAnswer>('POST', '/v1/images/generations', {
      body: { model: 'img-1', response_format: 'b64_json', ...body },
      headers: { authorization: `Bearer ${demo.key}` },
    });
  }

  it('admits at most what the balance covers among 100 concurrent requests, and the ledger balances', async () => {
    const demo = await seedImageDemo(harness, 10n * IMAGE_PRICE_MICROS);

    const answers = await Promise.all(
      Array.from({ length: 100 }, () => generate(demo, { prompt: 'A fox [[sim latency=300]]' })),
    );

    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(admitted.length).toBeLessThanOrEqual(10);
    expect(admitted.length).toBe(10);
    expect(refused.length).toBe(90);
    for (const answer of refused) {
      expect(answer.body.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota' });
    }
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(10n * IMAGE_PRICE_MICROS);
    expect(books.balance).toBe(0n);
    const logs = await harness.requestLogsOf(demo.keyId);
    expect(logs).toHaveLength(100);
    expect(logs.filter((log) => log.end_reason === 'completed' && log.image_count === 1)).toHaveLength(10);
  });

  it('captures the images delivered: n = 2 costs two images', async () => {
    const demo = await seedImageDemo(harness);
    const answer = await generate(demo, { prompt: 'Two foxes', n: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(2);
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(2n * IMAGE_PRICE_MICROS);
    expect(await harness.requestLogsOf(demo.keyId)).toEqual([
      {
        http_status: 200,
        end_reason: 'completed',
        image_count: 2,
        cost_micros: (2n * IMAGE_PRICE_MICROS).toString(),
      },
    ]);
  });

  it('charges nothing for a content-policy block', async () => {
    const demo = await seedImageDemo(harness);
    const answer = await generate(demo, { prompt: 'Something forbidden [[sim error=content_policy]]' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'content_policy_violation',
    });
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(0n);
    expect(await harness.requestLogsOf(demo.keyId)).toEqual([
      { http_status: 400, end_reason: 'upstream_error', image_count: 0, cost_micros: '0' },
    ]);
  });

  it.each([
    ['overload', 503],
    ['rate_limit', 429],
    ['bad_request', 400],
    ['insufficient_balance', 503],
  ])('releases the hold when the upstream fails (%s) after it was taken', async (errorClass, status) => {
    const demo = await seedImageDemo(harness, 10n * IMAGE_PRICE_MICROS);
    const answer = await generate(demo, { prompt: `A fox [[sim error=${errorClass}]]` });
    expect(answer.status).toBe(status);
    expect(answer.body.error?.type).toEqual(expect.any(String));
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(0n);
    expect(books.balance).toBe(10n * IMAGE_PRICE_MICROS);
    const [log] = await harness.requestLogsOf(demo.keyId);
    expect(log).toMatchObject({
      http_status: status,
      end_reason: 'upstream_error',
      image_count: 0,
      cost_micros: '0',
    });
    // The hold was taken as a row before the upstream call, and its settlement released it.
    const holds = await harness.query<{ status: string; amount: string }>(
      'select status, amount::text from holds where request_id = $1',
      [answer.headers.get('x-request-id')],
    );
    expect(holds).toEqual([{ status: 'settled', amount: IMAGE_PRICE_MICROS.toString() }]);
  });

  it('releases the hold of a client that leaves before its images arrive', async () => {
    const demo = await seedImageDemo(harness, 10n * IMAGE_PRICE_MICROS);
    const leaving = new AbortController();
    const request = fetch(`${harness.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'img-1',
        prompt: 'A slow fox [[sim latency=2000]]',
        response_format: 'b64_json',
      }),
      signal: leaving.signal,
    });
    // Left once the hold is taken: the account shows it.
    await waitForHeld(demo, IMAGE_PRICE_MICROS);
    leaving.abort();
    await expect(request).rejects.toThrow();

    await waitForLog(demo);
    const books = await harness.settledBooks(demo.accountId);
    expect(books.captures).toBe(0n);
    expect(await harness.requestLogsOf(demo.keyId)).toEqual([
      { http_status: 499, end_reason: 'client_disconnect', image_count: 0, cost_micros: '0' },
    ]);
  });

  async function waitForHeld(demo: ImageDemo, micros: bigint): Promise<void> {
    await waitFor(async () => (await harness.auditAccount(demo.accountId)).held === micros);
  }

  async function waitForLog(demo: ImageDemo): Promise<void> {
    await waitFor(async () => {
      await harness.settled();
      return (await harness.requestLogsOf(demo.keyId)).length > 0;
    });
  }
});
