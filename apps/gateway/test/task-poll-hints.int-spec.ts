import { randomBytes } from 'node:crypto';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { outageStep } from './outage-step';
import { TcpOutageProxy } from './tcp-outage.proxy';
import { newVideoAccount } from './video-demo';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const randomPart = () => randomBytes(16).toString('base64url').slice(0, 22);

/**
 * `Retry-After` on every style's query of an unfinished task, from the one poll schedule
 * (TaskPollHints): the OpenAI-style, unified, theta 2.0, alpha and gamma video GETs, the neutral task
 * GET, `/bt` CVSync2AsyncGetResult and theta GetAsset. The rows are written directly, unfinished and
 * with no worker running, so that each query finds them so; once a row is finished, no header.
 */
describe('poll hints on every style of task query', () => {
  let proxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let account: { key: string; keyId: string; accountId: string };

  beforeAll(async () => {
    // Redis through a proxy the outage test below can cut.
    proxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({ REDIS_URL: proxy.url(REDIS_URL) });
    account = await newVideoAccount(harness);
  });
  afterAll(async () => {
    await harness?.close();
    await proxy?.close();
  });

  async function insertTask(
    prefix: string,
    fields: { kind?: string; model?: string; request?: Record<string, unknown>; status?: string } = {},
  ): Promise<string> {
    const id = `${prefix}_${randomPart()}`;
    await harness.query(
      `INSERT INTO tasks (id, kind, key_id, account_id, model, status, progress, request, deadline_at, completed_at)
       VALUES ($1, $2, $3, $4, $5, $6, 40, $7, now() + interval '1 hour',
               CASE WHEN $6 = 'completed' THEN now() END)`,
      [
        id,
        fields.kind ?? 'video',
        account.keyId,
        account.accountId,
        fields.model ?? 'delta-2',
        fields.status ?? 'processing',
        JSON.stringify(fields.request ?? {}),
      ],
    );
    return id;
  }

  const auth = () => ({ authorization: `Bearer ${account.key}` });
  const get = (path: string) => harness.request('GET', path, { headers: auth() });
  const post = (path: string, body: unknown) => harness.request('POST', path, { body, headers: auth() });

  /** Every style's query of the task `id` (a video task whose request names `family`). */
  const videoQueries = (id: string): Array<[string, () => Promise<HttpAnswer>]> => [
    ['GET /v1/videos/{id}', () => get(`/v1/videos/${id}`)],
    ['GET /v1/video/query', () => get(`/v1/video/query?id=${id}`)],
    ['GET /v1/video/generations/{id}', () => get(`/v1/video/generations/${id}`)],
    ['GET /v1/tasks/{id}', () => get(`/v1/tasks/${id}`)],
  ];

  function expectHint(name: string, answer: HttpAnswer): void {
    expect({ name, status: answer.status }).toEqual({ name, status: 200 });
    expect({ name, retryAfter: answer.headers.get('retry-after') }).toEqual({
      name,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
    });
  }

  function expectNoHint(name: string, answer: HttpAnswer): void {
    expect({ name, status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({
      name,
      status: 200,
      retryAfter: null,
    });
  }

  it('carries Retry-After on the OpenAI-style, unified, theta 2.0 and neutral queries of an unfinished video', async () => {
    const id = await insertTask('video');
    for (const [name, query] of videoQueries(id)) expectHint(name, await query());
    const done = await insertTask('video', { status: 'completed' });
    for (const [name, query] of videoQueries(done)) expectNoHint(name, await query());
  });

  it('carries it on the alpha and gamma official queries', async () => {
    const alpha = await insertTask('video', { model: 'alphaq2-pro', request: { family: 'alpha' } });
    expectHint('alpha creations', await get(`/alpha/ent/v2/task/${alpha}/creations`));
    const gamma = await insertTask('video', { model: 'gamma-2.6', request: { family: 'gamma' } });
    expectHint('gamma query', await get(`/gamma/v1/videos/text2video/${gamma}`));
    const doneAlpha = await insertTask('video', {
      model: 'alphaq2-pro',
      request: { family: 'alpha' },
      status: 'completed',
    });
    expectNoHint('alpha creations, completed', await get(`/alpha/ent/v2/task/${doneAlpha}/creations`));
  });

  it('carries it on /bt CVSync2AsyncGetResult of an unfinished video task', async () => {
    const id = await insertTask('bt', {
      model: 'beta-video-3.0',
      request: { mode: 'text', resolution: '720p' },
    });
    const answer = await post('/bt?Action=CVSync2AsyncGetResult&Version=2022-08-31', {
      req_key: 'beta_t2v_v30',
      task_id: id,
    });
    expectHint('/bt GetResult', answer);
    expect(answer.body).toMatchObject({ code: 10000, data: { status: 'generating' } });
    // A task of another account is not found, and gets no hint.
    const stranger = await newVideoAccount(harness);
    const foreign = await harness.request('POST', '/bt?Action=CVSync2AsyncGetResult&Version=2022-08-31', {
      body: { req_key: 'beta_t2v_v30', task_id: id },
      headers: { authorization: `Bearer ${stranger.key}` },
    });
    expect(foreign.headers.get('retry-after')).toBeNull();
  });

  it('carries it on theta GetAsset of an asset still processing, not once it is Active', async () => {
    const groupId = `group_${randomPart()}`;
    await harness.query(
      `INSERT INTO asset_groups (id, account_id, channel_id, upstream_id, name) VALUES ($1, $2, 'none', 'g-1', 'g')`,
      [groupId, account.accountId],
    );
    const insertAsset = async (status: string) => {
      const id = `asset_${randomPart()}`;
      await harness.query(
        `INSERT INTO assets (id, account_id, group_id, channel_id, upstream_id, name, url, asset_type, status)
         VALUES ($1, $2, $3, 'none', $4, 'a', 'https://example.test/a.png', 'Image', $5)`,
        [id, account.accountId, groupId, `up-${id}`, status],
      );
      return id;
    };
    expectHint(
      'GetAsset, processing',
      await post('/v1/theta/asset/GetAsset', { Id: await insertAsset('Processing') }),
    );
    expectNoHint(
      'GetAsset, active',
      await post('/v1/theta/asset/GetAsset', { Id: await insertAsset('Active') }),
    );
  });

  it("answers at once with the schedule's hint while Redis is away (the due time cannot be read)", async () => {
    const id = await insertTask('video');
    await proxy.cut();
    try {
      for (const [name, query] of videoQueries(id)) {
        const started = Date.now();
        expectHint(name, await outageStep(harness, name, query(), 10_000));
        // The due time's read is refused or given up after 50 ms; it never waits for Redis to return.
        expect({ name, fast: Date.now() - started < 2_000 }).toEqual({ name, fast: true });
      }
    } finally {
      await proxy.restore();
    }
  });
});
