import { connect } from 'node:net';
import { GatewayHarness, NATIVE_GENERATE_PATH, NATIVE_HELLO_BODY, type TextDemo } from './gateway-harness';

const CHAT_BODY = { model: 'kappa-2.0-flash', messages: [{ role: 'user', content: 'Hello' }] };

interface NativeError {
  error: { code: number; message: string; status: string };
}
interface OpenAiError {
  error: { message: string; type: string; code: string; param: string | null };
}

describe('API keys on every route family', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start({ KEY_CACHE_TTL_MS: '60000' });
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  const native = (headers: Record<string, string>, query = '') =>
    harness.request<NativeError>('POST', `${NATIVE_GENERATE_PATH}${query}`, {
      body: NATIVE_HELLO_BODY,
      headers,
    });
  const chat = (key: string) =>
    harness.request<OpenAiError>('POST', '/v1/chat/completions', {
      body: CHAT_BODY,
      headers: { authorization: `Bearer ${key}` },
    });

  it('accepts a key created through the admin API in all three native forms and as Bearer on /v1', async () => {
    expect((await native({ authorization: `Bearer ${demo.key}` })).status).toBe(200);
    expect((await native({ 'x-vendor-api-key': demo.key })).status).toBe(200);
    expect((await native({}, `?key=${encodeURIComponent(demo.key)}`)).status).toBe(200);
    const answer = await chat(demo.key);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses missing and wrong keys with 401 in each dialect', async () => {
    const missing = await native({});
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
    const wrongNative = await native({ 'x-vendor-api-key': 'gk_nothere_0000000000000000000000000000' });
    expect(wrongNative.status).toBe(401);
    expect(wrongNative.body.error.status).toBe('UNAUTHENTICATED');
    const wrongChat = await chat('not-a-key');
    expect(wrongChat.status).toBe(401);
    expect(wrongChat.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
  });

  it('refuses a disabled key in both dialects, on every instance, within seconds', async () => {
    const second = await harness.startInstance();
    const { key, id } = await harness.createKey(demo.accountId);
    // Both instances have the key cached (TTL 60 s): only the invalidation can make them drop it.
    expect((await native({ 'x-vendor-api-key': key })).status).toBe(200);
    const onSecond = await harness.request('POST', NATIVE_GENERATE_PATH, {
      body: NATIVE_HELLO_BODY,
      headers: { 'x-vendor-api-key': key },
      baseUrl: second.url,
    });
    expect(onSecond.status).toBe(200);

    await harness.adminOk('PATCH', `/admin/keys/${id}`, { status: 'disabled' });
    const deadline = Date.now() + 3000;
    let secondStatus = 200;
    while (secondStatus !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      secondStatus = (
        await harness.request('POST', NATIVE_GENERATE_PATH, {
          body: NATIVE_HELLO_BODY,
          headers: { 'x-vendor-api-key': key },
          baseUrl: second.url,
        })
      ).status;
    }
    expect(secondStatus).toBe(401);
    const nativeAnswer = await native({ 'x-vendor-api-key': key });
    expect(nativeAnswer.status).toBe(401);
    expect(nativeAnswer.body.error.message).toMatch(/disabled/);
    const chatAnswer = await chat(key);
    expect(chatAnswer.status).toBe(401);
    expect(chatAnswer.body.error.message).toMatch(/disabled/);
  });

  it('refuses an expired key with 401 in each dialect', async () => {
    const { key } = await harness.createKey(demo.accountId, {
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await chat(key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const nativeAnswer = await native({ 'x-vendor-api-key': key });
    expect(nativeAnswer.status).toBe(401);
    expect(nativeAnswer.body.error.message).toMatch(/expired/);
    const chatAnswer = await chat(key);
    expect(chatAnswer.status).toBe(401);
    expect(chatAnswer.body.error.message).toMatch(/expired/);
  });

  it('never opens /admin to an inference key', async () => {
    const withKey = await harness.request<OpenAiError>('GET', '/admin/channels', {
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(withKey.status).toBe(403);
    expect(withKey.body.error.message).toMatch(/Inference keys/);
    const withoutToken = await harness.request('GET', '/admin/channels');
    expect(withoutToken.status).toBe(401);
    const wrongToken = await harness.request('GET', '/admin/channels', {
      headers: { authorization: 'Bearer wrong-admin-token-0000' },
    });
    expect(wrongToken.status).toBe(401);
  });

  it('refuses models outside a key allow-list wherever the model name appears', async () => {
    const { key } = await harness.createKey(demo.accountId, { allowedModels: ['chat-fast'] });
    const nativeAnswer = await native({ 'x-vendor-api-key': key });
    expect(nativeAnswer.status).toBe(403);
    expect(nativeAnswer.body.error).toMatchObject({ status: 'PERMISSION_DENIED' });
    const chatAnswer = await chat(key);
    expect(chatAnswer.status).toBe(403);
    expect(chatAnswer.body.error.param).toBe('model');
    const allowed = await harness.request('POST', '/v1/chat/completions', {
      body: { ...CHAT_BODY, model: 'chat-fast' },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(allowed.status).toBe(200);
    const listed = await harness.request<{ data: { id: string }[] }>('GET', '/v1/models', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(listed.body.data.map((model) => model.id)).toEqual(['chat-fast']);
    const one = await harness.request('GET', '/v1beta/models/kappa-2.0-flash', {
      headers: { 'x-vendor-api-key': key },
    });
    expect(one.status).toBe(404);
  });

  it.each([
    '/v1/videos',
    '/v1/video/create',
    '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
    '/alpha/ent/v2/text2video',
    '/gamma/v1/videos/text2video',
    '/lambda/submit/music',
    '/delta/v1/characters',
  ])('answers a request without a key on %s with 401 before its body has arrived', async (path) => {
    // Headers announce a 1 MB body of which 10 bytes are sent: only a refusal made before reading
    // the body can arrive; a route that read it first would wait for the rest.
    const { port } = new URL(harness.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
            'content-length: 1000000\r\n\r\n{"model":',
        );
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(answer.toLowerCase()).toContain('connection: close');
  });
});
