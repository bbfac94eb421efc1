import OpenAI from 'openai';
import {
  GatewayHarness,
  NATIVE_GENERATE_PATH,
  NATIVE_HELLO_BODY,
  type GatewayInstance,
  type TextDemo,
} from './gateway-harness';

/**
 * 10 s into a UTC minute, so that every request of a test falls in one minute window: 10:00:10 UTC
 * of the day the suite runs. The admin API's figures read budget periods by the real clock, so the
 * injected one must be in the same day (a fixed date failed every day after it).
 */
const today = new Date();
let now = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 10, 0, 10);
const clock = { now: () => now };

const CHAT = { model: 'chat-fast', messages: [{ role: 'user' as const, content: 'Hello' }] };

/**
 * Per-key and per-account limits on the text routes, end to end: two gateway instances on one
 * database and Redis, sharing an injected clock so that a test's requests share one minute window.
 */
describe('governance: limits, allow-lists and headers on the inference routes', () => {
  let harness: GatewayHarness;
  let first: GatewayInstance;
  let second: GatewayInstance;
  let proxied: GatewayInstance;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    first = await harness.startInstance({}, { clock });
    second = await harness.startInstance({}, { clock });
    proxied = await harness.startInstance(
      { clientConnections: { ...harness.config.clientConnections, trustProxy: true } },
      { clock },
    );
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness?.close());
  beforeEach(() => {
    now += 60_000;
  });

  async function keyWith(
    extra: Record<string, unknown>,
    accountId = demo.accountId,
  ): Promise<{ key: string; id: string }> {
    return harness.createKey(accountId, extra);
  }

  const chat = (key: string, baseUrl = first.url, headers: Record<string, string> = {}) =>
    harness.request<{ error?: { code: string; message: string } }>('POST', '/v1/chat/completions', {
      baseUrl,
      body: CHAT,
      headers: { authorization: `Bearer ${key}`, ...headers },
    });

  const native = (key: string) =>
    harness.request<{ error?: { code: number; status: string; message: string } }>(
      'POST',
      NATIVE_GENERATE_PATH,
      {
        baseUrl: first.url,
        body: NATIVE_HELLO_BODY,
        headers: { 'x-vendor-api-key': key },
      },
    );

  it('requests per minute on a key: OpenAI-style dialect, exact, 429 with Retry-After and the rate-limit headers', async () => {
    const { key } = await keyWith({ limits: { requestsPerMinute: 3 } });
    const answers = [];
    for (let index = 0; index < 5; index++) answers.push(await chat(key));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[0].headers.get('x-ratelimit-limit-requests')).toBe('3');
    expect(answers[0].headers.get('x-ratelimit-remaining-requests')).toBe('2');
    expect(answers[2].headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(answers[0].headers.get('x-ratelimit-reset-requests')).toBe('50s');
    const refused = answers[3];
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(refused.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    expect(refused.body.error?.code).toBe('rate_limit_exceeded');
    expect(refused.body.error?.message).toContain('requestsPerMinute');
    // Refusal rows are written in batches after the answer: read them once the batches are in.
    await harness.settled();
    const logs = await harness.requestLogsOf(
      (
        await harness.query<{ id: string }>('SELECT id FROM api_keys WHERE prefix = $1', [key.slice(0, 11)])
      )[0]?.id ?? '',
    );
    expect(logs.filter((log) => log.http_status === 429)).toHaveLength(2);
  });

  it('requests per minute on a key: native dialect', async () => {
    const { key } = await keyWith({ limits: { requestsPerMinute: 2 } });
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push(await native(key));
    expect(statuses.map((answer) => answer.status)).toEqual([200, 200, 429, 429]);
    expect(statuses[2].body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(statuses[2].body.error?.message).toContain('rate_limit_exceeded');
    expect(statuses[2].headers.get('retry-after')).not.toBeNull();
    expect(statuses[0].headers.get('x-ratelimit-limit-requests')).toBe('2');
  });

  it('a 60 requests-per-minute key sent 100 requests alternating between two instances admits exactly 60', async () => {
    const { key } = await keyWith({ limits: { requestsPerMinute: 60 } });
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, index) => chat(key, index % 2 === 0 ? first.url : second.url)),
      );
      statuses.push(...answers.map((answer) => answer.status));
    }
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);
  });

  it('an account limit set after its keys were used reaches every instance and counts its keys together', async () => {
    const accountId = await harness.createAccount(1_000_000_000n);
    const one = await keyWith({}, accountId);
    const two = await keyWith({}, accountId);
    // Both keys are cached by both instances without any governance.
    expect((await chat(one.key, first.url)).headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect((await chat(two.key, second.url)).status).toBe(200);
    await harness.adminOk('PATCH', `/admin/accounts/${accountId}`, { limits: { requestsPerMinute: 3 } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses = [
      (await chat(one.key, first.url)).status,
      (await chat(two.key, second.url)).status,
      (await chat(one.key, second.url)).status,
      (await chat(two.key, first.url)).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 429]);
    const view = await harness.adminOk<{ limits: unknown; current: { requestsThisMinute: number } }>(
      'GET',
      `/admin/accounts/${accountId}`,
    );
    expect(view.limits).toEqual({ requestsPerMinute: 3 });
  });

  it('tokens per minute: the token trio on every answer, and 429 naming the limit once the estimates fill it', async () => {
    // Each request counts its estimate (prompt and up to 1000 output tokens) until its usage corrects it.
    const { key } = await keyWith({ limits: { tokensPerMinute: 3000 } });
    const answers = await Promise.all(Array.from({ length: 12 }, () => chat(key)));
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(admitted[0].headers.get('x-ratelimit-limit-tokens')).toBe('3000');
    expect(Number(admitted[0].headers.get('x-ratelimit-remaining-tokens'))).toBeLessThan(3000);
    expect(admitted[0].headers.get('x-ratelimit-limit-requests')).toBeNull();
    expect(refused[0].body.error?.message).toContain('tokensPerMinute');
    expect(refused[0].headers.get('x-ratelimit-limit-tokens')).toBe('3000');
  });

  it('concurrent requests on a key: admits the limit in flight on both instances, 429 for the rest, freed after', async () => {
    const { key } = await keyWith({ limits: { concurrentRequests: 2 } });
    // The simulator answers after 600 ms (a body marker): all five are in flight at once.
    const slow = { ...CHAT, messages: [{ role: 'user' as const, content: '[[sim latency=600]] Hello' }] };
    const send = (baseUrl: string) =>
      harness.request<{ error?: { code: string; message: string } }>('POST', '/v1/chat/completions', {
        baseUrl,
        body: slow,
        headers: { authorization: `Bearer ${key}` },
      });
    const answers = await Promise.all([first.url, second.url, first.url, second.url, first.url].map(send));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0].body.error?.message).toContain('concurrentRequests');
    expect(refused[0].headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await chat(key)).status).toBe(200);
  });

  it('concurrent requests and tokens per minute on an account: native dialect', async () => {
    const accountId = await harness.createAccount(1_000_000_000n);
    await harness.adminOk('PATCH', `/admin/accounts/${accountId}`, {
      limits: { concurrentRequests: 1, tokensPerMinute: 100_000 },
    });
    const one = await keyWith({}, accountId);
    const two = await keyWith({}, accountId);
    const slowNative = (key: string) =>
      harness.request<{ error?: { code: number; status: string; message: string } }>(
        'POST',
        NATIVE_GENERATE_PATH,
        {
          baseUrl: first.url,
          body: { contents: [{ role: 'user', parts: [{ text: '[[sim latency=500]] Hello' }] }] },
          headers: { 'x-vendor-api-key': key },
        },
      );
    const [a, b] = await Promise.all([slowNative(one.key), slowNative(two.key)]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    const refused = a.status === 429 ? a : b;
    expect(refused.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });
    expect(refused.body.error?.message).toContain("the account's concurrentRequests");
    const admitted = a.status === 200 ? a : b;
    expect(admitted.headers.get('x-ratelimit-limit-tokens')).toBe('100000');
  });

  it('the official SDK reads the rate-limit headers and the cost, which equals the ledger capture', async () => {
    const { key } = await keyWith({ limits: { requestsPerMinute: 100, tokensPerMinute: 100_000 } });
    const client = new OpenAI({ apiKey: key, baseURL: `${first.url}/v1`, maxRetries: 0 });
    const { response } = await client.chat.completions
      .create({ model: 'chat-fast', messages: CHAT.messages })
      .withResponse();
    expect(response.headers.get('x-ratelimit-limit-requests')).toBe('100');
    expect(response.headers.get('x-ratelimit-remaining-requests')).toBe('99');
    expect(response.headers.get('x-ratelimit-limit-tokens')).toBe('100000');
    expect(response.headers.get('x-ratelimit-reset-tokens')).toMatch(/^\d+(\.\d+)?m?s|^\d+m\d+(\.\d+)?s$/);
    const cost = response.headers.get('x-gateway-cost-micros');
    expect(cost).toMatch(/^[1-9][0-9]*$/);
    await harness.settled();
    const captures = await harness.query<{ amount: string }>(
      "SELECT amount::text FROM ledger_entries WHERE kind = 'capture' AND request_id = $1",
      [response.headers.get('x-request-id')],
    );
    expect(captures).toEqual([{ amount: cost }]);
  });

  it('a key budget refuses with 402 budget_exceeded, naming the period and its reset, before any hold', async () => {
    // A request holds its most (about 2,000 micros at 1,000 output tokens): 3,000 covers one at a time.
    const { key, id } = await keyWith({ budget: { amountMicros: '3000', period: 'day' } });
    const answers = await Promise.all(Array.from({ length: 10 }, () => chat(key)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    const refused = answers.find((answer) => answer.status === 402);
    expect(refused?.body.error?.code).toBe('budget_exceeded');
    expect(refused?.body.error?.message).toMatch(
      /daily budget of 3000 micros.*resets at \d{4}-\d\d-\d\dT00:00:00\.000Z/,
    );
    await harness.settled();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const view = await harness.adminOk<{ current: { budgetSpentMicros: string } }>(
      'GET',
      `/admin/keys/${id}`,
    );
    const spent = BigInt(view.current.budgetSpentMicros);
    expect(spent).toBeGreaterThan(0n);
    expect(spent).toBeLessThanOrEqual(3000n);
    const captured = await harness.query<{ total: string }>(
      'SELECT coalesce(sum(cost_micros), 0)::text AS total FROM request_logs WHERE key_id = $1',
      [id],
    );
    expect(spent).toBe(BigInt(captured[0].total));
  });

  describe('IP allow-lists', () => {
    it('with TRUST_PROXY off: the socket address decides, X-Forwarded-For is ignored', async () => {
      const outside = await keyWith({ allowedIps: ['10.0.0.0/8'] });
      const inside = await keyWith({ allowedIps: ['127.0.0.1/32', '::1'] });
      const refused = await chat(outside.key, first.url, { 'x-forwarded-for': '10.1.2.3' });
      expect(refused.status).toBe(403);
      expect(refused.body.error?.code).toBe('ip_not_allowed');
      expect((await chat(inside.key, first.url)).status).toBe(200);
      // Task reads are refused alike.
      const read = await harness.request('GET', '/v1/videos/video_0123456789abcdef0123456789', {
        baseUrl: first.url,
        headers: { authorization: `Bearer ${outside.key}` },
      });
      expect(read.status).toBe(403);
      const logged = await harness.query<{ end_reason: string }>(
        'SELECT end_reason FROM request_logs WHERE key_id = $1',
        [outside.id],
      );
      expect(logged.map((row) => row.end_reason)).toContain('ip_not_allowed');
    });

    it('with TRUST_PROXY on: the forwarded client address decides', async () => {
      const { key } = await keyWith({ allowedIps: ['203.0.113.0/24'] });
      expect((await chat(key, proxied.url, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
      const refused = await chat(key, proxied.url, { 'x-forwarded-for': '198.51.100.1' });
      expect(refused.status).toBe(403);
      expect(refused.body.error?.message).toContain('198.51.100.1');
    });
  });
});
