import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, postJson, simulatorStats } from '../testing/simulator-client.util';

const KEY = 'sim-lambda-key';
const OTHER_KEY = 'other-lambda-key';

interface Envelope<Data = unknown> {
  code: string;
  message: string;
  data: Data;
}

interface Clip {
  id: string;
  status: string;
  title: string;
  audio_url: string;
  video_url: string;
  image_url: string;
  image_large_url: string;
  model_name: string;
  major_model_version: string;
  metadata: { duration: number | null; tags: string; error_message: string | null };
}

interface Task<Data = Clip[]> {
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number | null;
  finish_time: number | null;
  progress: string;
  data: Data;
}

describe('lambda music wire', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { lambda: [KEY, OTHER_KEY] } });
  });
  afterAll(() => simulator.close());

  const bearer = (key = KEY) => ({ authorization: `Bearer ${key}` });
  const submit = async (action: string, body: unknown, options: { key?: string; sim?: string } = {}) => {
    const answer = await postJson(`${simulator.url}/lambda/submit/${action}`, body, {
      ...bearer(options.key),
      ...(options.sim ? { 'x-sim': options.sim } : {}),
    });
    return { status: answer.status, body: JSON.parse(answer.text) as Envelope };
  };
  const submitted = async (action: string, body: unknown, sim?: string): Promise<string> => {
    const answer = await submit(action, body, { sim });
    expect(answer).toMatchObject({ status: 200, body: { code: 'success', message: '' } });
    return answer.body.data as string;
  };
  const fetchOne = async <Data = Clip[]>(id: string, key = KEY) => {
    const answer = await getUrl(`${simulator.url}/lambda/fetch/${id}`, bearer(key));
    return { status: answer.status, body: JSON.parse(answer.text) as Envelope<Task<Data>> };
  };
  const fetchMany = async (ids: unknown, key = KEY) => {
    const answer = await postJson(`${simulator.url}/lambda/fetch`, { ids }, bearer(key));
    return { status: answer.status, body: JSON.parse(answer.text) as Envelope<Task[]> };
  };

  describe('auth and refusals', () => {
    it.each([
      ['no header', {}],
      ['another scheme', { authorization: `Token ${KEY}` }],
      ['an unknown key', { authorization: 'Bearer not-a-key' }],
    ])('refuses %s with 401', async (_, headers) => {
      const answer = await postJson(`${simulator.url}/lambda/submit/music`, { prompt: 'a song' }, headers);
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'unauthorized', data: null });
    });

    it.each([
      ['an unknown action', 'remix', { prompt: 'x' }, 'invalid_action'],
      ['lyrics without a prompt', 'lyrics', { title: 'x' }, 'invalid_parameter'],
      ['music without prompt or description', 'music', { tags: 'pop' }, 'invalid_parameter'],
      ['an unknown model', 'music', { prompt: 'x', mv: 'lambda-v9' }, 'invalid_parameter'],
      [
        'a non-boolean make_instrumental',
        'music',
        { prompt: 'x', make_instrumental: 'yes' },
        'invalid_parameter',
      ],
      ['a numeric title', 'music', { prompt: 'x', title: 7 }, 'invalid_parameter'],
      [
        'a continuation without task_id',
        'music',
        { prompt: 'x', continue_clip_id: 'c', continue_at: 3 },
        'invalid_parameter',
      ],
      [
        'a continuation of an unknown task',
        'music',
        { prompt: 'x', continue_clip_id: 'c', continue_at: 3, task_id: 'nope' },
        'invalid_parameter',
      ],
    ])('refuses %s with 400', async (_, action, body, code) => {
      const answer = await submit(action, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code, data: null, message: expect.any(String) });
    });

    it.each([
      ['error=rate_limit,retry_after=3', 429, 'too_many_requests'],
      ['error=auth', 401, 'unauthorized'],
      ['error=insufficient_balance', 402, 'insufficient_balance'],
      ['error=bad_request', 400, 'bad_request'],
      ['error=content_policy', 400, 'content_policy_violation'],
      ['status=503', 503, 'internal_error'],
    ])('answers the scripted §9.5 error %s', async (sim, status, code) => {
      const answer = await submit('music', { prompt: 'x' }, { sim });
      expect(answer.status).toBe(status);
      expect(answer.body).toMatchObject({ code, data: null });
    });
  });

  describe('music tasks', () => {
    it('submits in any case of the action and streams its clips before completing them', async () => {
      const id = await submitted('MUSIC', {
        prompt: 'night drive [[sim polls=3]]',
        title: 'Night Drive',
        tags: 'synthwave',
        mv: 'lambda-v4',
      });
      const statuses: string[] = [];
      let task: Task | undefined;
      for (let query = 0; query < 4; query += 1) {
        task = (await fetchOne(id)).body.data;
        statuses.push(task.status);
        if (task.status === 'IN_PROGRESS') {
          expect(task.data.map((clip) => clip.status)).toEqual(['streaming', 'streaming']);
          const partial = await getBytes(task.data[0].audio_url);
          expect(partial).toMatchObject({ status: 200, contentType: 'audio/mpeg' });
        }
      }
      expect(statuses).toEqual(['SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS']);
      const done = task as Task;
      expect(done).toMatchObject({ action: 'MUSIC', fail_reason: '', progress: '100%' });
      expect(done.finish_time).toEqual(expect.any(Number));
      expect(done.data).toHaveLength(2);
      const [clip] = done.data;
      expect(clip).toMatchObject({
        status: 'complete',
        title: 'Night Drive',
        model_name: 'lambda-v4',
        major_model_version: 'v4',
        metadata: { duration: 180.5, tags: 'synthwave', error_message: null },
      });
      const audio = await getBytes(clip.audio_url);
      expect(audio).toMatchObject({ status: 200, contentType: 'audio/mpeg' });
      expect(audio.bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
      expect((await getBytes(clip.video_url)).contentType).toBe('video/mp4');
      expect((await getBytes(clip.image_large_url)).contentType).toBe('image/jpeg');
    });

    it('answers UNKNOWN for the scripted number of queries, then goes on', async () => {
      const id = await submitted('music', { description_prompt: 'calm piano' }, 'unknown=2');
      const statuses = [];
      for (let query = 0; query < 3; query += 1) statuses.push((await fetchOne(id)).body.data.status);
      expect(statuses).toEqual(['UNKNOWN', 'UNKNOWN', 'SUCCESS']);
    });

    it('fails with a fail_reason, under the status finish= names when asked', async () => {
      const failed = await submitted('music', { prompt: 'x' }, 'error=content_policy,error_after=1');
      expect((await fetchOne(failed)).body.data.status).toBe('SUBMITTED');
      expect((await fetchOne(failed)).body.data).toMatchObject({
        status: 'FAILURE',
        fail_reason: 'the request violates the content policy',
      });
      const odd = await submitted(
        'music',
        { prompt: 'x' },
        'error=bad_request,error_after=0,code=clip rejected,finish=SUCCESS',
      );
      const task = (await fetchOne(odd)).body.data;
      expect(task).toMatchObject({ status: 'SUCCESS', fail_reason: 'clip rejected' });
      expect(task.data[0]).toMatchObject({ status: 'error', audio_url: '' });
    });

    it('continues a clip of a task of the same key only', async () => {
      const source = await submitted('music', { prompt: 'a first song' });
      const [clip] = (await fetchOne(source)).body.data.data;
      const continuation = { prompt: 'more', continue_clip_id: clip.id, continue_at: 30.5, task_id: source };
      expect((await submit('music', continuation)).status).toBe(200);
      expect((await submit('music', continuation, { key: OTHER_KEY })).status).toBe(400);
      expect((await submit('music', { ...continuation, continue_clip_id: 'not-a-clip' })).status).toBe(400);
    });
  });

  it('answers lyrics as one object with their text', async () => {
    const id = await submitted('Lyrics', { prompt: 'rain on a tin roof', title: 'Tin Roof' });
    const { data } = (await fetchOne<{ id: string; status: string; title: string; text: string }>(id)).body;
    expect(data).toMatchObject({ action: 'LYRICS', status: 'SUCCESS' });
    expect(data.data).toEqual({
      id: expect.any(String),
      status: 'complete',
      title: 'Tin Roof',
      text: expect.stringContaining('rain on a tin roof'),
    });
  });

  describe('fetch', () => {
    it('answers a batch with the key’s tasks only, counting each batch call once', async () => {
      const mine = [await submitted('music', { prompt: 'a' }), await submitted('music', { prompt: 'b' })];
      const before = (await simulatorStats(simulator.url)).byRoute['lambda:fetch'] ?? 0;

      const answer = await fetchMany([...mine, 'unknown-id', mine[0]], KEY);
      const foreign = await fetchMany(mine, OTHER_KEY);

      expect(answer.status).toBe(200);
      expect(answer.body.data.map((task) => task.task_id)).toEqual(mine);
      expect(foreign.body.data).toEqual([]);
      expect((await simulatorStats(simulator.url)).byRoute['lambda:fetch']).toBe(before + 2);
    });

    it('refuses a batch without a list of ids, and a single fetch of an id that is not the key’s', async () => {
      expect((await fetchMany('abc')).status).toBe(400);
      expect((await fetchMany([1, 2])).status).toBe(400);
      const id = await submitted('music', { prompt: 'x' });
      expect((await fetchOne(id, OTHER_KEY)).body).toMatchObject({ code: 'task_not_found', data: null });
      expect((await fetchOne('missing')).status).toBe(404);
    });
  });
});
