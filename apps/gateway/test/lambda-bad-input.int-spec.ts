import { GatewayHarness } from './gateway-harness';
import { lambdaClient, seedMusicDemo, type LambdaClient, type MusicDemo } from './lambda-demo';
import { newVideoAccount } from './video-demo';

const UNKNOWN_TASK = 'music_AAAAAAAAAAAAAAAAAAAAAA';
const CONTINUATION = { continue_clip_id: 'clip-1', continue_at: 12, task_id: UNKNOWN_TASK };

/**
 * Bad input on the lambda routes: a 4xx in the family's `{code, message, data: null}` envelope,
 * naming the field, with nothing held, no task created, and a log row for each refused submission.
 */
describe('lambda routes refuse bad input', () => {
  let harness: GatewayHarness;
  let demo: MusicDemo;
  let client: LambdaClient;
  let refusedSubmissions = 0;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedMusicDemo(harness);
    client = lambdaClient(harness, demo.key);
  });
  afterAll(() => harness.close());

  it.each([
    ['an unknown action', 'remix', { prompt: 'x' }, 400, 'invalid_request', 'action'],
    ['lyrics without a prompt', 'lyrics', { title: 'x' }, 400, 'invalid_request', 'prompt'],
    ['music without prompt or description', 'music', { tags: 'pop' }, 400, 'invalid_request', 'prompt'],
    ['a body that is a list', 'music', ['prompt'], 400, 'invalid_request', 'JSON object'],
    ['a numeric title', 'music', { prompt: 'x', title: 7 }, 400, 'invalid_request', 'title'],
    [
      'a non-boolean make_instrumental',
      'music',
      { prompt: 'x', make_instrumental: 'yes' },
      400,
      'invalid_request',
      'make_instrumental',
    ],
    [
      'a negative continue_at',
      'music',
      { prompt: 'x', ...CONTINUATION, continue_at: -1 },
      400,
      'invalid_request',
      'continue_at',
    ],
    [
      'a continuation without task_id',
      'music',
      { prompt: 'x', continue_clip_id: 'c', continue_at: 3 },
      400,
      'invalid_request',
      'task_id',
    ],
    [
      'a continuation of lyrics',
      'lyrics',
      { prompt: 'x', ...CONTINUATION },
      400,
      'invalid_request',
      'music only',
    ],
    [
      'a continuation of a task that is not yours',
      'music',
      { prompt: 'x', ...CONTINUATION },
      400,
      'invalid_request',
      'task_id',
    ],
    [
      'a model no channel offers',
      'music',
      { prompt: 'x', mv: 'lambda-v5' },
      404,
      'model_not_found',
      'lambda-v5',
    ],
    ['NUL in the prompt', 'music', { prompt: 'a\u0000b' }, 400, 'invalid_request', 'prompt'],
    [
      'an unpaired surrogate in a field passed through',
      'music',
      { prompt: 'x', extra: { note: '\ud800' } },
      400,
      'invalid_request',
      'extra.note',
    ],
  ])('refuses %s', async (_, action, body, status, code, named) => {
    const answer = await client.submit(action, body);
    refusedSubmissions += 1;
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ code, message: expect.stringContaining(named), data: null });
  });

  it('refuses a body that is not JSON, and a call without a key, in the family envelope', async () => {
    const broken = await harness.request('POST', '/lambda/submit/music', {
      rawBody: '{"prompt": "x"',
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ code: 'invalid_json', data: null });
    const anonymous = await harness.request('POST', '/lambda/fetch', { body: { ids: [] } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'unauthenticated', data: null });
  });

  it.each([
    ['/lambda/submit/music', '{"prompt":"a song","__proto__":{"mv":"lambda-v5"}}', '__proto__'],
    [
      '/lambda/submit/lyrics',
      '{"prompt":"a song","extra":{"constructor":{"prototype":{}}}}',
      'extra.constructor',
    ],
    ['/lambda/fetch', '{"ids":[],"constructor":1}', 'constructor'],
    ['/lambda/fetch', '{"ids":[],"\\u005f_proto__":{}}', '__proto__'],
  ])('refuses a reserved key on POST %s in the family envelope, naming it', async (path, rawBody, field) => {
    const answer = await harness.request('POST', path, {
      rawBody,
      headers: { authorization: `Bearer ${demo.key}`, 'content-type': 'application/json' },
    });
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 400,
      body: {
        code: 'invalid_request',
        message: expect.stringContaining(`${field} uses the reserved key`),
        data: null,
      },
    });
  });

  it('refuses a submission the balance cannot cover with a 402, holding nothing', async () => {
    const broke = await newVideoAccount(harness, 0n);
    const answer = await lambdaClient(harness, broke.key).submit('music', { prompt: 'x' });
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ code: 'insufficient_balance', data: null });
    const holds = await harness.query<{ n: number }>(
      'select count(*)::int as n from holds where account_id = $1',
      [broke.accountId],
    );
    expect(holds[0].n).toBe(0);
  });

  it.each([
    ['ids that are not a list', { ids: 'music_x' }],
    ['ids that are not strings', { ids: [1, 2] }],
    ['no ids', {}],
    ['101 ids', { ids: Array.from({ length: 101 }, () => UNKNOWN_TASK) }],
  ])('refuses a batch fetch with %s, naming ids', async (_, body) => {
    const answer = await harness.request('POST', '/lambda/fetch', {
      body,
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('ids') });
  });

  it('answers a batch of 100 ids that name no task of the caller with an empty list', async () => {
    const answer = await client.fetchMany(Array.from({ length: 100 }, (_, index) => `music_${index}\u0000`));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ code: 'success', message: '', data: [] });
  });

  it('answers 404 for clip files of an unknown task and 400 for an unknown file', async () => {
    const auth = { authorization: `Bearer ${demo.key}` };
    const unknown = await harness.request('GET', `/lambda/content/${UNKNOWN_TASK}/clip-1/audio`, {
      headers: auth,
    });
    expect(unknown.status).toBe(404);
    const file = await harness.request('GET', `/lambda/content/${UNKNOWN_TASK}/clip-1/lyrics`, {
      headers: auth,
    });
    expect(file.status).toBe(400);
    expect(file.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('file') });
  });

  it('declares the lambda routes in the OpenAPI document', async () => {
    const document = await harness.request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/docs/openapi.json',
    );
    const { paths } = document.body;
    expect(Object.keys(paths['/lambda/submit/{action}'])).toEqual(['post']);
    expect(Object.keys(paths['/lambda/fetch'])).toEqual(['post']);
    expect(Object.keys(paths['/lambda/fetch/{id}'])).toEqual(['get']);
    expect(Object.keys(paths['/lambda/content/{id}/{clipId}/{file}'])).toEqual(['get']);
  });

  it('held nothing and created no task, and logged every refused submission at no cost', async () => {
    await harness.settled();
    const [counts] = await harness.query<{ holds: number; tasks: number }>(
      `select (select count(*)::int from holds where account_id = $1) as holds,
              (select count(*)::int from tasks where account_id = $1) as tasks`,
      [demo.accountId],
    );
    expect(counts).toEqual({ holds: 0, tasks: 0 });
    const logs = await harness.query<{ route: string; http_status: number; cost_micros: string }>(
      'select route, http_status, cost_micros::text from request_logs where key_id = $1',
      [demo.keyId],
    );
    expect(logs).toHaveLength(refusedSubmissions);
    for (const log of logs) {
      expect(log).toMatchObject({ route: '/lambda/submit/{action}', cost_micros: '0' });
      expect(log.http_status).toBeGreaterThanOrEqual(400);
    }
  });
});
