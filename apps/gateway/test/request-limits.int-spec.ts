import { GatewayHarness, NATIVE_GENERATE_PATH, type HttpAnswer, type TextDemo } from './gateway-harness';

interface NativeError {
  error: { code: number; message: string; status: string };
}
interface OpenAiError {
  error: { message: string; type: string; param: string | null; code: string };
}

const CHAT_PATH = '/v1/chat/completions';
const HELLO_CHAT = { model: 'chat-fast', messages: [{ role: 'user', content: 'Hello' }] };

/** `{"<field>":[{},{},…]}` built as bytes, without building the values. */
function emptyObjects(prefix: string, count: number): Buffer {
  return Buffer.from(`${prefix}[${new Array<string>(count).fill('{}').join(',')}]}`, 'utf8');
}

/**
 * Issue 24, defects 2, 6 and 9: bodies that stalled a replica for seconds, crashed it out of heap, or
 * answered 500, and bytes the gateway forwarded although it could not have checked them.
 */
describe('request limits: what one hostile body can cost', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;
  /** A verified key whose account has no money, as the outside tester used. */
  let brokeKey: string;
  let brokeKeyId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
    const brokeAccount = await harness.createAccount(0n);
    ({ key: brokeKey, id: brokeKeyId } = await harness.createKey(brokeAccount));
  });
  afterAll(() => harness.close());

  const native = <T = NativeError>(rawBody: string | Buffer, headers: Record<string, string> = {}) =>
    harness.request<T>('POST', NATIVE_GENERATE_PATH, {
      rawBody,
      headers: { 'x-vendor-api-key': brokeKey, 'content-type': 'application/json', ...headers },
    });
  const chat = <T = OpenAiError>(rawBody: string | Buffer, headers: Record<string, string> = {}) =>
    harness.request<T>('POST', CHAT_PATH, {
      rawBody,
      headers: { authorization: `Bearer ${brokeKey}`, 'content-type': 'application/json', ...headers },
    });
  const servedHello = () =>
    harness.request<{ choices: unknown[] }>('POST', CHAT_PATH, {
      body: HELLO_CHAT,
      headers: { authorization: `Bearer ${demo.key}` },
    });
  const upstreamRequests = async () =>
    ((await (await fetch(`${harness.simulatorUrl}/__sim/stats`)).json()) as { requests: number }).requests;

  it('refuses 20 MiB of 6.9 million empty contents items with a 400 naming contents, and serves a request beside it', async () => {
    const body = emptyObjects('{"contents":', 6_900_000);
    expect(body.length).toBeLessThanOrEqual(harness.config.jsonBodyLimitBytes);
    const [refused, served] = await Promise.all([native(body), servedHello()]);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ status: 'INVALID_ARGUMENT' });
    expect(refused.body.error.message).toMatch(/contents must have at most 10000 items/);
    expect(served.status).toBe(200);
    expect(served.body.choices).toHaveLength(1);
  });

  it('refuses a million empty contents items, and a million empty messages, naming the field', async () => {
    const [contents, messages, served] = await Promise.all([
      native(emptyObjects('{"contents":', 1_000_000)),
      chat(emptyObjects('{"model":"chat-fast","messages":', 1_000_000)),
      servedHello(),
    ]);
    expect(contents.status).toBe(400);
    expect(contents.body.error.message).toMatch(/contents must have at most 10000 items/);
    expect(messages.status).toBe(400);
    expect(messages.body.error).toMatchObject({ param: 'messages', type: 'invalid_request_error' });
    expect(messages.body.error.message).toMatch(/messages must have at most 10000 items/);
    expect(served.status).toBe(200);
  });

  it('answers a body of empty items over the byte limit with a 413 before counting them', async () => {
    const body = emptyObjects('{"contents":', 7_000_000);
    expect(body.length).toBeGreaterThan(harness.config.jsonBodyLimitBytes);
    const answer = await native(body);
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({ code: 413, status: 'INVALID_ARGUMENT' });
  });

  it('refuses lists over their field limit that fit the general one, naming the field', async () => {
    const tools = Array.from({ length: 129 }, (_, index) => ({
      type: 'function',
      function: { name: `f${index}` },
    }));
    const answer = await chat(JSON.stringify({ ...HELLO_CHAT, tools }));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      param: 'tools',
      message: expect.stringMatching(/tools must have at most 128 items/),
    });
  });

  it('refuses 10,000 levels of nesting with a 400 on both routes, naming where it goes too deep', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const nativeAnswer = await native(
      `{"contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":${deep}}}]}]}`,
    );
    expect(nativeAnswer.status).toBe(400);
    expect(nativeAnswer.body.error.message).toMatch(
      /contents\[0\]\.parts\[0\]\.functionCall\.args(\.a)+ must not be nested more than 64 levels deep/,
    );
    const chatAnswer = await chat(
      `{"model":"chat-fast","messages":[{"role":"user","content":"x"}],"response_format":${deep}}`,
    );
    expect(chatAnswer.status).toBe(400);
    expect(chatAnswer.body.error.param).toMatch(/^response_format(\.a)+$/);
  });

  it.each([
    ['__proto__ at the top', '{"__proto__":{"x":1},"contents":[{"parts":[{"text":"x"}]}]}', '__proto__'],
    [
      'constructor at the top',
      '{"constructor":{"x_y":1},"contents":[{"parts":[{"text":"x"}]}]}',
      'constructor',
    ],
    [
      'constructor beside a snake_case field',
      '{"constructor":1,"system_instruction":{"parts":[{"text":"x"}]},"contents":[{"parts":[{"text":"x"}]}]}',
      'constructor',
    ],
    [
      '__proto__ in a content item',
      '{"contents":[{"__proto__":{},"parts":[{"text":"x"}]}]}',
      'contents[0].__proto__',
    ],
    ['hasOwnProperty without contents', '{"hasOwnProperty":{"x_y":1}}', 'contents'],
  ])('refuses a native body with %s with a 400, not a TypeError', async (_case, body, field) => {
    const answer = await native(body);
    expect(answer.status).toBe(400);
    expect(answer.body.error.status).toBe('INVALID_ARGUMENT');
    expect(answer.body.error.message).toContain(field);
  });

  it('refuses bytes that are not UTF-8 instead of forwarding them', async () => {
    const before = await upstreamRequests();
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const answers = await Promise.all([
      native(latin1('{"contents":[{"parts":[{"text":"caf\u00e9"}]}]}'), { 'x-vendor-api-key': demo.key }),
      chat(latin1('{"model":"chat-fast","messages":[{"role":"user","content":"caf\u00e9"}]}'), {
        authorization: `Bearer ${demo.key}`,
      }),
    ]);
    expect(answers.map((answer: HttpAnswer<{ error: { message: string } }>) => answer.status)).toEqual([
      400, 400,
    ]);
    for (const answer of answers) expect(answer.body.error.message).toMatch(/not valid UTF-8/);
    expect(await upstreamRequests()).toBe(before);
  });

  it('refuses invalid Base64 in an OpenAI-style data: URL with a 400, as the native route refuses bad inlineData', async () => {
    const before = await upstreamRequests();
    const image = (model: string) =>
      JSON.stringify({
        model,
        messages: [
          {
            role: 'user',
            content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO*w0KGgo=' } }],
          },
        ],
      });
    const headers = { authorization: `Bearer ${demo.key}` };
    for (const model of ['kappa-2.0-flash', 'chat-fast']) {
      const answer = await chat(image(model), headers);
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe('messages[0].content[0].image_url.url');
      expect(answer.body.error.message).toMatch(/Base64/);
    }
    const nativeAnswer = await native(
      '{"contents":[{"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBO*w0KGgo="}}]}]}',
      { 'x-vendor-api-key': demo.key },
    );
    expect(nativeAnswer.status).toBe(400);
    expect(await upstreamRequests()).toBe(before);
  });

  it('logs a request of a verified key refused while its body was parsed, and reads no body without a valid key', async () => {
    const refusals = await Promise.all([
      native('{"contents": ['),
      chat('{"model":"chat-fast"', { 'content-type': 'text/plain' }),
      chat(Buffer.alloc(harness.config.jsonBodyLimitBytes + 1, 0x20)),
      native(emptyObjects('{"contents":', 20_000)),
      native(Buffer.from([0x7b, 0xff, 0x7d])),
    ]);
    expect(refusals.map((answer) => answer.status)).toEqual([400, 400, 413, 400, 400]);
    const unknownKey = await harness.request('POST', CHAT_PATH, {
      rawBody: '{"model": [',
      headers: { authorization: 'Bearer gk_unknown0_notakeyatall', 'content-type': 'application/json' },
    });
    expect(unknownKey.status).toBe(401);

    await harness.settled();
    const rows = await harness.query<{
      request_id: string;
      key_id: string;
      http_status: number;
      end_reason: string;
    }>('select request_id, key_id, http_status, end_reason from request_logs where request_id = any($1)', [
      [...refusals, unknownKey].map((answer) => answer.headers.get('x-request-id')),
    ]);
    const statusOf = (answer: { headers: Headers }) =>
      rows
        .filter((row) => row.request_id === answer.headers.get('x-request-id'))
        .map((row) => row.http_status);
    expect(refusals.map(statusOf)).toEqual([[400], [400], [413], [400], [400]]);
    expect(rows.every((row) => row.key_id === brokeKeyId && row.end_reason === 'refused')).toBe(true);
    expect(statusOf(unknownKey)).toEqual([]);
  });
});
