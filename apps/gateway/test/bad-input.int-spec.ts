import { GatewayHarness, NATIVE_GENERATE_PATH, type TextDemo } from './gateway-harness';

interface NativeError {
  error: { code: number; message: string; status: string };
}
interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

describe('bad input gets a 4xx in the route dialect, no charge, nothing logged as success', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  const native = (rawBody: string | Buffer, headers: Record<string, string> = {}) =>
    harness.request<NativeError>('POST', NATIVE_GENERATE_PATH, {
      rawBody,
      headers: { 'x-vendor-api-key': demo.key, 'content-type': 'application/json', ...headers },
    });
  const chat = (rawBody: string | Buffer, headers: Record<string, string> = {}) =>
    harness.request<OpenAiError>('POST', '/v1/chat/completions', {
      rawBody,
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json', ...headers },
    });

  const nativeCases: [string, string, RegExp][] = [
    ['malformed JSON', '{"contents": [', /not valid JSON/],
    ['an empty body', '', /body is empty/],
    ['missing contents', '{}', /contents/],
    ['parts not an array', '{"contents":[{"role":"user","parts":"hi"}]}', /contents\[0\]\.parts/],
    [
      'an unknown part kind',
      '{"contents":[{"role":"user","parts":[{"foo":"bar"}]}]}',
      /contents\[0\]\.parts\[0\] must have exactly one of .*found: foo/,
    ],
    [
      'a bad enumeration value',
      '{"contents":[{"parts":[{"text":"x"}]}],"safetySettings":[{"category":"HARM_CATEGORY_HARASSMENT","threshold":"BLOCK_SOME"}]}',
      /safetySettings\[0\]\.threshold must be one of/,
    ],
    [
      'a wrong type',
      '{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"temperature":"hot"}}',
      /generationConfig\.temperature/,
    ],
    ['a body that is an array', '[1,2]', /JSON object/],
    [
      'a reserved key inside function arguments',
      '{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{"constructor":"x"}}}]}]}',
      /contents\[0\]\.parts\[0\]\.functionCall\.args\.constructor uses the reserved key 'constructor'/,
    ],
  ];

  it.each(nativeCases)(
    'native: %s → 400 INVALID_ARGUMENT naming the problem',
    async (_name, body, message) => {
      const answer = await native(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.status).toBe('INVALID_ARGUMENT');
      expect(answer.body.error.code).toBe(400);
      expect(answer.body.error.message).toMatch(message);
    },
  );

  it('native: an unknown model → 404 NOT_FOUND', async () => {
    const answer = await harness.request<NativeError>(
      'POST',
      '/v1beta/models/no-such-model:generateContent',
      {
        body: { contents: [{ parts: [{ text: 'x' }] }] },
        headers: { 'x-vendor-api-key': demo.key },
      },
    );
    expect(answer.status).toBe(404);
    expect(answer.body.error.status).toBe('NOT_FOUND');
    expect(answer.body.error.message).toMatch(/no-such-model/);
  });

  it('native: a wrong content type → 400 naming the header', async () => {
    const answer = await native('{"contents":[]}', { 'content-type': 'text/plain' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toMatch(/Content-Type must be application\/json \(got text\/plain\)/);
  });

  it('native and OpenAI-style: 20 MiB + 1 byte → 413 in dialect', async () => {
    const limit = harness.config.jsonBodyLimitBytes;
    const oversized = Buffer.alloc(limit + 1, 0x20);
    const nativeAnswer = await native(oversized);
    expect(nativeAnswer.status).toBe(413);
    expect(nativeAnswer.body.error).toMatchObject({ code: 413, status: 'INVALID_ARGUMENT' });
    const chatAnswer = await chat(oversized);
    expect(chatAnswer.status).toBe(413);
    expect(chatAnswer.body.error).toMatchObject({ type: 'invalid_request_error', code: 'payload_too_large' });
  });

  it('OpenAI-style: malformed JSON, a wrong type, a missing field → 400 with the field in param', async () => {
    const malformed = await chat('{"model":');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('invalid_request_error');
    const wrongType = await chat(
      '{"model":"chat-fast","messages":[{"role":"user","content":"x"}],"temperature":"hot"}',
    );
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.param).toBe('temperature');
    const reserved = await chat(
      '{"model":"chat-fast","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"properties":{"constructor":{}}}}}]}',
    );
    expect(reserved.status).toBe(400);
    expect(reserved.body.error.param).toBe('tools[0].function.parameters.properties.constructor');
    const missing = await chat('{"model":"chat-fast"}');
    expect(missing.status).toBe(400);
    expect(missing.body.error.param).toBe('messages');
    expect(missing.body.error.message).toMatch(/messages/);
  });

  it('logs each refused request of a verified key once, and nothing for a refused key', async () => {
    const invalidNative = await native('{}');
    const invalidChat = await chat('{"model":"chat-fast","messages":"hi"}');
    const unknownModel = await chat('{"model":"no-such-model","messages":[{"role":"user","content":"x"}]}');
    const unauthenticated = await harness.request('POST', '/v1/chat/completions', {
      rawBody: '{}',
      headers: { authorization: 'Bearer gk_unknown0_notakeyatall', 'content-type': 'application/json' },
    });
    expect([invalidNative.status, invalidChat.status, unknownModel.status, unauthenticated.status]).toEqual([
      400, 400, 404, 401,
    ]);

    await harness.settled();
    const rowsOf = (answer: { headers: Headers }) =>
      harness.query<{
        key_id: string;
        route: string;
        model: string | null;
        http_status: number;
        end_reason: string;
      }>('select key_id, route, model, http_status, end_reason from request_logs where request_id = $1', [
        answer.headers.get('x-request-id'),
      ]);
    expect(await rowsOf(invalidNative)).toEqual([
      {
        key_id: demo.keyId,
        route: '/v1beta/models/{model}:generateContent',
        model: 'kappa-2.0-flash',
        http_status: 400,
        end_reason: 'refused',
      },
    ]);
    expect(await rowsOf(invalidChat)).toEqual([
      {
        key_id: demo.keyId,
        route: '/v1/chat/completions',
        model: 'chat-fast',
        http_status: 400,
        end_reason: 'refused',
      },
    ]);
    // Refused by the pipeline itself, which writes its own row: one row, not two.
    expect(await rowsOf(unknownModel)).toEqual([
      expect.objectContaining({ key_id: demo.keyId, http_status: 404, model: 'no-such-model' }),
    ]);
    expect(await rowsOf(unauthenticated)).toEqual([]);
  });

  it('charged nothing and logged no success for any of it', async () => {
    await harness.settled();
    const account = await harness.adminOk<{ balanceMicros: string; heldMicros: string }>(
      'GET',
      `/admin/accounts/${demo.accountId}`,
    );
    expect(account.balanceMicros).toBe('1000000000');
    expect(account.heldMicros).toBe('0');
    const ledger = await harness.query<{ n: number }>(
      "select count(*)::int as n from ledger_entries where kind <> 'credit'",
    );
    expect(ledger[0].n).toBe(0);
    const successes = await harness.query<{ n: number }>(
      "select count(*)::int as n from request_logs where end_reason = 'completed'",
    );
    expect(successes[0].n).toBe(0);
  });
});
