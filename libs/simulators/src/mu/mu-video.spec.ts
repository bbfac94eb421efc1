import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postJson, simulatorStats } from '../testing/simulator-client.util';

const KEY = 'sim-mu-key';
const FRAME = 'data:image/png;base64,iVBORw0KGgo=';

describe('mu video wire', () => {
  let simulator: RunningSimulator;
  /** `null` sends no Authorization header at all. */
  const headers = (key: string | null, directives?: string): Record<string, string> => ({
    ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    ...(directives ? { 'x-sim': directives } : {}),
  });
  const submit = async (body: Record<string, unknown>, directives?: string, key: string | null = KEY) => {
    const answer = await postJson(`${simulator.url}/v1/video_generation`, body, headers(key, directives));
    expect(answer.status).toBe(200);
    return parseJson(answer.text);
  };
  const submitted = async (body: Record<string, unknown> = {}, directives?: string): Promise<string> => {
    const answer = await submit({ model: 'Mu-Video-2.3', prompt: 'a fox in snow', ...body }, directives);
    expect(answer.base_resp).toEqual({ status_code: 0, status_msg: 'success' });
    return String(answer.task_id);
  };
  const query = async (taskId: string, key: string = KEY) => {
    const answer = await getUrl(`${simulator.url}/v1/query/video_generation?task_id=${taskId}`, headers(key));
    expect(answer.status).toBe(200);
    return parseJson(answer.text);
  };
  const retrieve = async (fileId: string, key: string = KEY) => {
    const answer = await getUrl(`${simulator.url}/v1/files/retrieve?file_id=${fileId}`, headers(key));
    expect(answer.status).toBe(200);
    return parseJson(answer.text);
  };
  const codeOf = (answer: Record<string, unknown>): number =>
    (answer.base_resp as { status_code: number }).status_code;

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { mu: [KEY, 'other-mu-key'] } });
  });
  afterAll(() => simulator.close());

  it('goes Preparing, Queueing, Processing, then Success with a file the retrieve call serves', async () => {
    const taskId = await submitted({ duration: 6, resolution: '1080P' }, 'polls=4');
    expect(taskId).toMatch(/^[1-9]\d{14}$/);
    const statuses: unknown[] = [];
    for (let poll = 0; poll < 4; poll += 1) statuses.push((await query(taskId)).status);
    expect(statuses).toEqual(['Preparing', 'Queueing', 'Processing', 'Processing']);
    const done = await query(taskId);
    expect(done).toMatchObject({
      task_id: taskId,
      status: 'Success',
      video_width: 1920,
      video_height: 1080,
      base_resp: { status_code: 0, status_msg: 'success' },
    });
    expect(done.file_id).toMatch(/^\d+$/);
    const file = await retrieve(String(done.file_id));
    expect(file.base_resp).toEqual({ status_code: 0, status_msg: 'success' });
    const described = file.file as Record<string, unknown>;
    expect(described).toMatchObject({
      file_id: Number(done.file_id),
      filename: 'output.mp4',
      purpose: 'video_generation',
    });
    const download = await getBytes(String(described.download_url));
    expect(download.status).toBe(200);
    expect(download.contentType).toBe('video/mp4');
    expect(download.bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
    expect(download.bytes.length).toBe(described.bytes);
    const again = (await retrieve(String(done.file_id))).file as Record<string, unknown>;
    expect(again.download_url).not.toBe(described.download_url);
  });

  it('is not done before task_ms has passed, whatever the poll count', async () => {
    const taskId = await submitted({}, 'task_ms=60000');
    expect((await query(taskId)).status).toBe('Preparing');
    expect((await query(taskId)).status).toBe('Queueing');
  });

  it.each([
    ['no key', null, 1004],
    ['an unknown key', 'wrong-key', 2049],
  ])('answers %s with HTTP 200 and a base_resp error code', async (_, key, code) => {
    const answer = await submit({ model: 'Mu-Video-2.3', prompt: 'x' }, undefined, key);
    expect(answer).toEqual({ base_resp: { status_code: code, status_msg: expect.any(String) } });
  });

  it('shows a task only to the key that submitted it', async () => {
    const taskId = await submitted();
    const done = await query(taskId);
    expect(codeOf(await query(taskId, 'other-mu-key'))).toBe(2013);
    expect(codeOf(await retrieve(String(done.file_id), 'other-mu-key'))).toBe(2013);
  });

  it.each([
    ['an unknown model', { model: 'Mu-Video-9' }, 'model must be one of'],
    ['a duration of 5', { duration: 5 }, 'duration must be 6 or 10'],
    ['10 s at 1080P', { duration: 10, resolution: '1080P' }, 'duration 10 is only available at 768P or 512P'],
    ['512P on 2.3', { resolution: '512P' }, 'resolution must be 768P, 1080P for Mu-Video-2.3'],
    ['a long prompt', { prompt: 'a'.repeat(2001) }, 'prompt must be at most 2000 characters'],
    ['no prompt and no frame', { prompt: '' }, 'prompt is required for Mu-Video-2.3'],
    [
      'Fast without a frame',
      { model: 'Mu-Video-2.3-Fast' },
      'first_frame_image is required for Mu-Video-2.3-Fast',
    ],
    ['a frame that is not a URL', { first_frame_image: 'iVBORw0KGgo=' }, 'first_frame_image must be'],
    [
      'a last frame on 2.3',
      { first_frame_image: FRAME, last_frame_image: FRAME },
      'last_frame_image is not supported',
    ],
    ['a non-boolean switch', { prompt_optimizer: 'yes' }, 'prompt_optimizer must be a boolean'],
  ])('refuses %s with 2013 naming the rule', async (_, fields, rule) => {
    const answer = await submit({ model: 'Mu-Video-2.3', prompt: 'a fox', ...fields });
    expect(codeOf(answer)).toBe(2013);
    expect((answer.base_resp as { status_msg: string }).status_msg).toContain(rule);
    expect(answer.task_id).toBeUndefined();
  });

  it('accepts Fast with a first frame, 10 s at 768P, and 02 with first and last frames', async () => {
    await submitted({ model: 'Mu-Video-2.3-Fast', prompt: '', first_frame_image: FRAME });
    await submitted({ duration: 10, resolution: '768P' });
    await submitted({
      model: 'Mu-Video-02',
      first_frame_image: FRAME,
      last_frame_image: 'https://example.test/l.png',
    });
  });

  it.each([
    ['rate_limit', '', 1002],
    ['rate_limit', 'code=1039', 1039],
    ['overload', '', 1000],
    ['overload', 'code=1013', 1013],
    ['auth', '', 1004],
    ['auth', 'code=2049', 2049],
    ['insufficient_balance', '', 1008],
    ['content_policy', '', 1026],
    ['bad_request', '', 2013],
    ['timeout', 'hang=10', 1001],
  ])('scripts error=%s %s as HTTP 200 with base_resp %s', async (errorClass, extra, code) => {
    const directives = [`error=${errorClass}`, extra].filter(Boolean).join(';');
    const answer = await submit({ model: 'Mu-Video-2.3', prompt: 'x' }, directives);
    expect(codeOf(answer)).toBe(code);
  });

  it('blocks a prompt with 1026 and an output with a Fail carrying 1027', async () => {
    expect(codeOf(await submit({ model: 'Mu-Video-2.3', prompt: 'x' }, 'block=prompt'))).toBe(1026);
    const taskId = await submitted({}, 'block=output');
    expect(await query(taskId)).toMatchObject({ status: 'Fail', base_resp: { status_code: 1027 } });
  });

  it('fails a task after error_after pending answers with the class code, and on every later query', async () => {
    const taskId = await submitted({}, 'error=overload;error_after=1');
    expect((await query(taskId)).status).toBe('Preparing');
    expect(await query(taskId)).toMatchObject({ status: 'Fail', base_resp: { status_code: 1000 } });
    expect(await query(taskId)).toMatchObject({ status: 'Fail', base_resp: { status_code: 1000 } });
  });

  it('ends in a plain Fail with finish=fail', async () => {
    const taskId = await submitted({}, 'finish=Fail');
    expect(await query(taskId)).toMatchObject({ status: 'Fail', file_id: '', base_resp: { status_code: 0 } });
  });

  it('answers another finish= word as it is (a status outside §7.4)', async () => {
    expect(await query(await submitted({}, 'finish=Paused'))).toMatchObject({
      status: 'Paused',
      file_id: '',
    });
  });

  it('points the download link at result_host', async () => {
    const done = await query(await submitted({}, 'result_host=10.0.0.7'));
    const file = (await retrieve(String(done.file_id))).file as Record<string, unknown>;
    expect(file.download_url).toMatch(/^http:\/\/10\.0\.0\.7\/files\/video_/);
  });

  it('hands out expired links with url_ttl=0 (403 on download)', async () => {
    const taskId = await submitted({}, 'url_ttl=0');
    const done = await query(taskId);
    const file = (await retrieve(String(done.file_id))).file as Record<string, unknown>;
    expect((await getBytes(String(file.download_url))).status).toBe(403);
  });

  it('counts its routes', async () => {
    const stats = await simulatorStats(simulator.url);
    expect(stats.byRoute['mu:submit']).toBeGreaterThan(0);
    expect(stats.byRoute['mu:query']).toBeGreaterThan(0);
    expect(stats.byRoute['mu:retrieveFile']).toBeGreaterThan(0);
  });
});
