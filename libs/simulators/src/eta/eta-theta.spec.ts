import { imageSize } from 'image-size';
import { solidImage } from '../image-bytes.util';
import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postJson } from '../testing/simulator-client.util';

const AUTH = { authorization: 'Bearer sim-eta-key' };
const OTHER_KEY = { authorization: 'Bearer other-eta-key' };
const MODEL = 'eta-theta-1-0-pro-250528';
const TEXT = { type: 'text', text: 'a paper boat on a pond' };

interface ThetaAnswer {
  id: string;
  model: string;
  status: string;
  content?: { video_url: string; last_frame_url?: string };
  error?: { code: string; message: string };
  usage?: { completion_tokens: number; total_tokens: number };
  created_at: number;
  updated_at: number;
  seed: number;
  resolution: string;
  ratio: string;
  duration: number;
  framespersecond: number;
  service_tier: string;
  execution_expires_after: number;
  generate_audio?: boolean;
  draft?: boolean;
}

describe('eta theta video tasks', () => {
  let simulator: RunningSimulator;
  const tasksUrl = () => `${simulator.url}/api/v3/contents/generations/tasks`;
  const create = (body: Record<string, unknown>, headers: Record<string, string> = AUTH) =>
    postJson(tasksUrl(), { model: MODEL, content: [TEXT], ...body }, headers);
  const createId = async (body: Record<string, unknown> = {}, directives = ''): Promise<string> => {
    const result = await create(body, directives ? { ...AUTH, 'x-sim': directives } : AUTH);
    expect(result.status).toBe(200);
    return String(parseJson(result.text)['id']);
  };
  const query = async (id: string, headers: Record<string, string> = AUTH) =>
    getUrl(`${tasksUrl()}/${id}`, headers);
  const answerOf = async (id: string): Promise<ThetaAnswer> => {
    const result = await query(id);
    expect(result.status).toBe(200);
    return JSON.parse(result.text) as ThetaAnswer;
  };
  const remove = (id: string) => fetch(`${tasksUrl()}/${id}`, { method: 'DELETE', headers: AUTH });

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { eta: ['sim-eta-key', 'other-eta-key'] } });
  });
  afterAll(() => simulator.close());

  it('creates a task and answers queued, running, then succeeded with a video under /files', async () => {
    const result = await create(
      { resolution: '1080p', ratio: '16:9', duration: 10, seed: 7 },
      { ...AUTH, 'x-sim': 'polls=2' },
    );
    expect(result.status).toBe(200);
    expect(result.headers.get('x-request-id')).toMatch(/^02\d+$/);
    const { id } = parseJson(result.text) as { id: string };
    expect(id).toMatch(/^cgt-\d{14}-[a-z0-9]{5}$/);
    expect((await answerOf(id)).status).toBe('queued');
    expect((await answerOf(id)).status).toBe('running');
    const done = await answerOf(id);
    expect(done).toEqual({
      id,
      model: MODEL,
      status: 'succeeded',
      content: { video_url: expect.stringMatching(/\/files\/video_\w+\.mp4$/) },
      usage: { completion_tokens: 486_000, total_tokens: 486_000 },
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      seed: 7,
      resolution: '1080p',
      ratio: '16:9',
      duration: 10,
      framespersecond: 24,
      service_tier: 'default',
      execution_expires_after: 172_800,
    });
    const video = await getBytes(done.content?.video_url ?? '');
    expect(video.contentType).toBe('video/mp4');
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect((await answerOf(id)).content).toEqual(done.content);
  });

  it('takes data: frames with roles, resolves adaptive to the first frame, and returns the last frame', async () => {
    const portrait = `data:image/png;base64,${solidImage('png', 360, 640).base64}`;
    const id = await createId({
      model: 'eta-theta-1-5-pro-251215',
      content: [
        TEXT,
        { type: 'image_url', image_url: { url: portrait }, role: 'first_frame' },
        { type: 'image_url', image_url: { url: 'https://images.test/last.png' }, role: 'last_frame' },
      ],
      ratio: 'adaptive',
      resolution: '480p',
      return_last_frame: true,
      generate_audio: false,
    });
    const done = await answerOf(id);
    expect(done).toMatchObject({ status: 'succeeded', ratio: '9:16', generate_audio: false, draft: false });
    const lastFrame = await getBytes(done.content?.last_frame_url ?? '');
    expect(imageSize(lastFrame.bytes)).toMatchObject({ type: 'png', width: 480, height: 856 });
  });

  it('fails a task as scripted: a class after pending answers, an output block, or another terminal word', async () => {
    const failing = await createId({}, 'error=overload;error_after=1');
    expect((await answerOf(failing)).status).toBe('queued');
    expect(await answerOf(failing)).toMatchObject({
      status: 'failed',
      error: { code: 'InternalServiceError' },
    });
    const blocked = await createId({}, 'block=output');
    expect(await answerOf(blocked)).toMatchObject({
      status: 'failed',
      error: { code: 'OutputVideoSensitiveContentDetected' },
    });
    expect((await answerOf(await createId({}, 'finish=expired'))).status).toBe('expired');
    expect((await answerOf(await createId({}, 'finish=paused'))).status).toBe('paused');
  });

  it('points the result link at result_host', async () => {
    const done = await answerOf(await createId({}, 'result_host=10.0.0.7'));
    expect(done.content?.video_url).toMatch(/^http:\/\/10\.0\.0\.7\/files\/video_/);
  });

  it('cancels a queued task, refuses to cancel a running one, and deletes a finished record', async () => {
    const queued = await createId({}, 'polls=3');
    expect((await remove(queued)).status).toBe(200);
    expect(await answerOf(queued)).toMatchObject({ status: 'cancelled' });
    const running = await createId({}, 'polls=3');
    await answerOf(running);
    await answerOf(running);
    const refused = await remove(running);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'InvalidParameter', param: 'id' } });
    const finished = await createId();
    expect((await answerOf(finished)).status).toBe('succeeded');
    expect((await remove(finished)).status).toBe(200);
    expect((await query(finished)).status).toBe(404);
  });

  it('lists the caller own tasks newest first, filtered and paged, without moving them on', async () => {
    const first = await createId({ model: 'eta-theta-1-0-lite-t2v-250428' });
    const second = await createId({ model: 'eta-theta-1-0-lite-t2v-250428' });
    const listed = await getUrl(`${tasksUrl()}?filter.model=eta-theta-1-0-lite-t2v-250428&page_size=1`, AUTH);
    expect(parseJson(listed.text)).toEqual({
      items: [expect.objectContaining({ id: second, status: 'queued' })],
      total: 2,
    });
    const byIds = await getUrl(`${tasksUrl()}?filter.task_ids=${first}&filter.status=queued`, AUTH);
    expect(parseJson(byIds.text)).toMatchObject({ items: [{ id: first }], total: 1 });
    const other = await getUrl(`${tasksUrl()}?filter.task_ids=${first}`, OTHER_KEY);
    expect(parseJson(other.text)).toEqual({ items: [], total: 0 });
    expect((await query(first, OTHER_KEY)).status).toBe(404);
  });

  it.each([
    ['a missing model', { model: undefined }, 400, 'MissingParameter'],
    ['an unknown model', { model: 'eta-theta-9-9' }, 404, 'InvalidEndpointOrModel.NotFound'],
    ['no content', { content: [] }, 400, 'MissingParameter'],
    [
      'a text after an image',
      { content: [{ type: 'image_url', image_url: { url: 'https://a.test/f.png' } }, TEXT] },
      400,
      'InvalidParameter',
    ],
    [
      'a video item on 1.x',
      { content: [TEXT, { type: 'video_url', video_url: { url: 'https://a.test/v.mp4' } }] },
      400,
      'InvalidParameter',
    ],
    [
      'an http:// image',
      { content: [TEXT, { type: 'image_url', image_url: { url: 'http://a.test/f.png' } }] },
      400,
      'InvalidParameter',
    ],
    [
      'a last frame alone',
      {
        content: [
          TEXT,
          { type: 'image_url', image_url: { url: 'https://a.test/f.png' }, role: 'last_frame' },
        ],
      },
      400,
      'InvalidParameter',
    ],
    [
      'an image on the text-only model',
      {
        model: 'eta-theta-1-0-lite-t2v-250428',
        content: [TEXT, { type: 'image_url', image_url: { url: 'https://a.test/f.png' } }],
      },
      400,
      'InvalidParameter',
    ],
    ['a duration of 13', { duration: 13 }, 400, 'InvalidParameter'],
    ['duration and frames', { duration: 5, frames: 121 }, 400, 'InvalidParameter'],
    ['a resolution of 4k', { resolution: '4k' }, 400, 'InvalidParameter'],
    ['keep_ratio without an image', { ratio: 'keep_ratio' }, 400, 'InvalidParameter'],
    ['generate_audio on 1.0', { generate_audio: true }, 400, 'InvalidParameter'],
    ['a seed over 2^32-1', { seed: 2 ** 32 }, 400, 'InvalidParameter'],
  ])('refuses %s', async (_case, body, status, code) => {
    const result = await create(body);
    expect(result.status).toBe(status);
    expect(parseJson(result.text)).toMatchObject({ error: { code } });
  });

  it('refuses a wrong key with 401, a blocked prompt with 400, and plays scripted call errors', async () => {
    expect((await create({}, { authorization: 'Bearer nope' })).status).toBe(401);
    const blocked = await create({}, { ...AUTH, 'x-sim': 'block=prompt' });
    expect(parseJson(blocked.text)).toMatchObject({ error: { code: 'InputTextSensitiveContentDetected' } });
    const id = await createId();
    const limited = await query(id, { ...AUTH, 'x-sim': 'error=rate_limit;retry_after=3' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await answerOf(id)).status).toBe('succeeded');
  });

  it('gives result links 24 hours, or what url_ttl says', async () => {
    const done = await answerOf(await createId({}, 'url_ttl=0'));
    expect((await getBytes(done.content?.video_url ?? '')).status).toBe(403);
  });
});
