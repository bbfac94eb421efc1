import { createHmac } from 'node:crypto';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, postJson, simulatorStats } from '../testing/simulator-client.util';

const ACCESS_KEY = 'sim-gamma-ak';
const SECRET_KEY = 'sim-gamma-sk';
const IMAGE = 'https://img.example/first.png';

interface OfficialAnswer {
  code: number;
  message: string;
  request_id: string;
  data?: {
    task_id: string;
    task_status: string;
    task_status_msg: string;
    task_info: { external_task_id: string };
    created_at: number;
    updated_at: number;
    task_result?: { videos: Array<{ id: string; url: string; duration: string }> };
  };
}

/** An HS256 JWT written from RFC 7519 in the test, independent of the verifier. */
function token(claims: Record<string, unknown>, secret = SECRET_KEY, alg = 'HS256'): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const now = () => Math.floor(Date.now() / 1000);
const validClaims = (fields: Record<string, unknown> = {}) => ({
  iss: ACCESS_KEY,
  exp: now() + 1800,
  nbf: now() - 5,
  ...fields,
});

describe('gamma official-compatible wire (upstreams.md §5.8)', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({
      keys: { gammaOfficial: [`${ACCESS_KEY}|${SECRET_KEY}`, 'other-ak|other-sk'] },
    });
  });
  afterAll(() => simulator.close());

  const create = async (
    endpoint: string,
    body: Record<string, unknown>,
    options: { authorization?: string; directives?: string } = {},
  ) => {
    const answer = await postJson(`${simulator.url}/v1/videos/${endpoint}`, body, {
      authorization: options.authorization ?? `Bearer ${token(validClaims())}`,
      ...(options.directives ? { 'x-sim': options.directives } : {}),
    });
    return { status: answer.status, body: JSON.parse(answer.text) as OfficialAnswer };
  };
  const query = async (
    endpoint: string,
    taskId: string,
    authorization = `Bearer ${token(validClaims())}`,
  ) => {
    const answer = await getUrl(`${simulator.url}/v1/videos/${endpoint}/${taskId}`, { authorization });
    return { status: answer.status, body: JSON.parse(answer.text) as OfficialAnswer };
  };
  const textBody = (fields: Record<string, unknown> = {}) => ({
    model_name: 'gamma-v2-6',
    prompt: 'a fox runs',
    duration: '10',
    ...fields,
  });

  describe('the token', () => {
    it.each([
      ['no Authorization header', '', 1001],
      ['a token that is not a JWT', 'Bearer not-a-jwt', 1002],
      ['another algorithm', `Bearer ${token(validClaims(), SECRET_KEY, 'HS512')}`, 1002],
      ['an unknown access key', `Bearer ${token(validClaims({ iss: 'someone-else' }))}`, 1000],
      ['a wrong signature', `Bearer ${token(validClaims(), 'wrong-secret')}`, 1000],
      ['a token not valid yet', `Bearer ${token(validClaims({ nbf: now() + 60 }))}`, 1003],
      ['an expired token', `Bearer ${token(validClaims({ exp: now() - 1 }))}`, 1004],
    ])('refuses %s with 401 and its code', async (_case, authorization, code) => {
      const answer = await create('text2video', textBody(), { authorization });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ code, message: expect.any(String), request_id: expect.any(String) });
    });
  });

  it('creates a task and answers it submitted → processing → succeed with a downloadable video', async () => {
    const created = await create('text2video', textBody({ external_task_id: 'mine-1' }), {
      directives: 'polls=2',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      code: 0,
      message: 'SUCCEED',
      data: { task_status: 'submitted', task_info: { external_task_id: 'mine-1' } },
    });
    const taskId = created.body.data?.task_id ?? '';
    expect(taskId).toMatch(/^\d{18}$/);
    expect(String(created.body.data?.created_at)).toMatch(/^\d{13}$/);
    const statuses: string[] = [];
    let last: OfficialAnswer | undefined;
    for (let asked = 0; asked < 4; asked += 1) {
      last = (await query('text2video', taskId)).body;
      statuses.push(last.data?.task_status ?? '');
    }
    expect(statuses).toEqual(['submitted', 'processing', 'succeed', 'succeed']);
    const video = last?.data?.task_result?.videos[0];
    expect(video).toMatchObject({ duration: '10.0' });
    const file = await getBytes(video?.url ?? '');
    expect(file.status).toBe(200);
  });

  it('answers a repeated external_task_id with the task it made', async () => {
    const first = await create('text2video', textBody({ external_task_id: 'same-key' }));
    const second = await create('text2video', textBody({ external_task_id: 'same-key' }));
    expect(second.body.data?.task_id).toBe(first.body.data?.task_id);
    expect(
      (await simulatorStats(simulator.url)).byRoute['gamma:official:externalIdReplay'],
    ).toBeGreaterThanOrEqual(1);
  });

  it('finds a task only under the endpoint it was created on, and only for its key', async () => {
    const created = await create('image2video', textBody({ image: IMAGE, image_tail: IMAGE }));
    const taskId = created.body.data?.task_id ?? '';
    expect((await query('image2video', taskId)).status).toBe(200);
    expect((await query('text2video', taskId)).body).toMatchObject({ code: 1203 });
    const stranger = await query(
      'image2video',
      taskId,
      `Bearer ${token(validClaims({ iss: 'other-ak' }), 'other-sk')}`,
    );
    expect(stranger).toMatchObject({ status: 404, body: { code: 1203 } });
  });

  it('fails a task scripted to fail, with why', async () => {
    const created = await create('text2video', textBody(), {
      directives: 'error=content_policy;error_after=1',
    });
    const taskId = created.body.data?.task_id ?? '';
    expect((await query('text2video', taskId)).body.data?.task_status).toBe('submitted');
    expect((await query('text2video', taskId)).body.data).toMatchObject({
      task_status: 'failed',
      task_status_msg: expect.stringContaining('content review'),
    });
  });

  it.each([
    ['text2video', { model_name: 'gamma-9' }, 'model_name'],
    ['text2video', { duration: '7' }, 'duration'],
    ['text2video', { duration: 10 }, 'duration'],
    ['text2video', { aspect_ratio: '4:3' }, 'aspect_ratio'],
    ['text2video', { model_name: 'gamma-v2-5-turbo', sound: 'on' }, 'sound'],
    ['text2video', { prompt: undefined }, 'prompt'],
    ['text2video', { image_list: [] }, 'image_list'],
    ['image2video', {}, 'image'],
    ['image2video', { image: 'data:image/png;base64,AAAA' }, 'image'],
    ['omni-video', { duration: '16' }, 'duration'],
    ['omni-video', { image_list: [{ image_url: IMAGE, type: 'middle' }] }, 'image_list[0].type'],
    ['omni-video', { video_list: [{ video_url: 'ftp://x', refer_type: 'base' }] }, 'video_list[0].video_url'],
  ])('refuses on %s %j with 400 / 1201 naming %s', async (endpoint, fields, field) => {
    const answer = await create(endpoint, textBody(fields));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(1201);
    expect(answer.body.message).toContain(field);
  });

  it('accepts omni-video durations of 3 to 15 seconds', async () => {
    const answer = await create('omni-video', textBody({ model_name: 'gamma-v3-omni', duration: '3' }));
    expect(answer.body.code).toBe(0);
  });

  it.each([
    ['error=rate_limit', 429, 1302],
    ['error=insufficient_balance', 429, 1102],
    ['error=overload', 500, 5000],
    ['block=prompt', 400, 1301],
  ])('plays %s as HTTP %i with code %i', async (directives, status, code) => {
    const answer = await create('text2video', textBody(), { directives });
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });
});
