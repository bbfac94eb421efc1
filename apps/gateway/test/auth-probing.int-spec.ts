import { GatewayHarness, NATIVE_GENERATE_PATH, NATIVE_HELLO_BODY, type TextDemo } from './gateway-harness';

const CHAT_BODY = { model: 'chat-fast', messages: [{ role: 'user', content: 'Hello' }] };
const WRONG_KEY = 'gk_wrongkey_000000000000000000000000000000000000';

interface NativeError {
  error: { code: number; message: string; status: string };
}
interface OpenAiError {
  error: { message: string; type: string; code: string; param: string | null };
}

describe('probing /admin without the admin token', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ AUTH_FAILURE_LIMIT: '0' });
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  const UNKNOWN_ADMIN_REQUESTS: Array<[string, string]> = [
    ['GET', '/admin'],
    ['GET', '/admin/no-such-thing'],
    ['POST', '/admin/keys/some-id/no-such-action'],
    ['DELETE', '/admin/accounts'],
    ['GET', '/admin/keys/'],
    ['OPTIONS', '/admin/channels'],
    ['GET', '/%61dmin/no-such-thing'],
    ['GET', '/ADMIN/no-such-thing?x=1'],
  ];

  it.each(UNKNOWN_ADMIN_REQUESTS)(
    'answers %s %s with 401 without a token, and 404 with it',
    async (method, path) => {
      const anonymous = await harness.request<OpenAiError>(method, path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.type).toBe('authentication_error');

      const wrongToken = await harness.request(method, path, {
        headers: { authorization: 'Bearer not-the-admin-token-at-all' },
      });
      expect(wrongToken.status).toBe(401);

      const inferenceKey = await harness.request(method, path, {
        headers: { authorization: `Bearer ${demo.key}` },
      });
      expect(inferenceKey.status).toBe(403);

      expect((await harness.admin(method, path)).status).toBe(404);
    },
  );

  it('answers an existing admin route reached through an encoded path only to the token', async () => {
    expect((await harness.request('GET', '/%61dmin/channels')).status).toBe(401);
    expect((await harness.admin('GET', '/%61dmin/channels')).status).toBe(200);
  });

  it('leaves the paths outside /admin, /v1 and /v1beta open', async () => {
    expect((await harness.request('GET', '/healthz')).status).toBe(200);
    expect((await harness.request('GET', '/administrator')).status).toBe(404);
  });
});

describe('throttling failed authentication per client address', () => {
  const LIMIT = 3;
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start({
      AUTH_FAILURE_LIMIT: String(LIMIT),
      AUTH_FAILURE_WINDOW_MS: '60000',
    });
    // Seeding uses the admin token only: no failure is counted before the tests.
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  const chat = (key: string, options: { baseUrl?: string; headers?: Record<string, string> } = {}) =>
    harness.request<OpenAiError>('POST', '/v1/chat/completions', {
      body: CHAT_BODY,
      headers: { authorization: `Bearer ${key}`, ...options.headers },
      baseUrl: options.baseUrl,
    });
  const native = (key: string) =>
    harness.request<NativeError>('POST', NATIVE_GENERATE_PATH, {
      body: NATIVE_HELLO_BODY,
      headers: { 'x-vendor-api-key': key },
    });
  const listChannels = (token: string) =>
    harness.request<OpenAiError>('GET', '/admin/channels', { headers: { authorization: `Bearer ${token}` } });

  function expectRetryAfter(answer: { headers: Headers }): void {
    const seconds = Number(answer.headers.get('retry-after'));
    expect(Number.isInteger(seconds)).toBe(true);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
  }

  it('refuses the failures past the limit with 429 and Retry-After, in each route dialect', async () => {
    const refusals = [
      await chat(WRONG_KEY),
      await native(WRONG_KEY),
      await listChannels('not-the-admin-token'),
    ];
    expect(refusals.map((answer) => answer.status)).toEqual([401, 401, 401]);

    const throttledChat = await chat(WRONG_KEY);
    expect(throttledChat.status).toBe(429);
    expectRetryAfter(throttledChat);
    expect(throttledChat.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });

    const throttledNative = await native('gk_otherkey_000000000000000000000000000000000000');
    expect(throttledNative.status).toBe(429);
    expectRetryAfter(throttledNative);
    expect(throttledNative.body.error).toMatchObject({ code: 429, status: 'RESOURCE_EXHAUSTED' });

    const throttledAdmin = await listChannels('not-the-admin-token');
    expect(throttledAdmin.status).toBe(429);
    expectRetryAfter(throttledAdmin);
    expect(throttledAdmin.body.error.type).toBe('rate_limit_error');

    const noCredential = await harness.request('GET', '/admin/no-such-thing');
    expect(noCredential.status).toBe(429);
  });

  it('still admits valid credentials from the throttled address, a key created now included', async () => {
    expect((await chat(demo.key)).status).toBe(200);
    expect((await native(demo.key)).status).toBe(200);
    expect((await listChannels(harness.adminToken)).status).toBe(200);

    const { key } = await harness.createKey(demo.accountId);
    expect((await chat(key)).status).toBe(200);
    expect((await chat(WRONG_KEY)).status).toBe(429);
  });

  it('throttles the address on another instance too: the count is shared', async () => {
    const second = await harness.startInstance();

    expect((await chat(WRONG_KEY, { baseUrl: second.url })).status).toBe(429);
    expect((await chat(demo.key, { baseUrl: second.url })).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY trusts the peer, and then counts each forwarded address', async () => {
    const spoofed = await chat(WRONG_KEY, { headers: { 'x-forwarded-for': '198.51.100.1' } });
    expect(spoofed.status).toBe(429);

    const behindProxy = await harness.startInstance({
      clientConnections: { ...harness.config.clientConnections, trustProxy: ['loopback'] },
    });
    const fromClient = (address: string) =>
      chat(WRONG_KEY, { baseUrl: behindProxy.url, headers: { 'x-forwarded-for': address } });
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LIMIT; attempt += 1)
      statuses.push((await fromClient('198.51.100.2')).status);

    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await fromClient('198.51.100.3')).status).toBe(401);
  });
});
