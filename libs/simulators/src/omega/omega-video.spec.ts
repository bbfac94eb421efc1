import { RunningSimulator, startSimulator } from '../server';
import { getBytes, getUrl, parseJson, postJson, simulatorStats } from '../testing/simulator-client.util';

const KEY = 'sim-omega-key';
const SUBMIT_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

describe('omega video wire', () => {
  let simulator: RunningSimulator;
  /** `null` leaves the header out. */
  const headers = (key: string | null = KEY, async: string | null = 'enable', directives?: string) => ({
    ...(key === null ? {} : { authorization: `Bearer ${key}` }),
    ...(async === null ? {} : { 'x-omega-async': async }),
    ...(directives ? { 'x-sim': directives } : {}),
  });
  const t2v = (parameters: Record<string, unknown> = {}, input: Record<string, unknown> = {}) => ({
    model: 'omega2.6-t2v',
    input: { prompt: 'a fox runs', ...input },
    parameters: { size: '1280*720', duration: 5, ...parameters },
  });
  const submit = (body: unknown, requestHeaders: Record<string, string> = headers()) =>
    postJson(`${simulator.url}${SUBMIT_PATH}`, body, requestHeaders);
  const submitted = async (body: unknown = t2v(), directives?: string): Promise<string> => {
    const answer = await submit(body, headers(KEY, 'enable', directives));
    expect(answer.status).toBe(200);
    const payload = parseJson(answer.text);
    expect(payload.output).toEqual({ task_id: expect.any(String), task_status: 'PENDING' });
    return String((payload.output as Record<string, unknown>).task_id);
  };
  const query = async (taskId: string, key = KEY) => {
    const answer = await getUrl(`${simulator.url}/api/v1/tasks/${taskId}`, headers(key, null));
    expect(answer.status).toBe(200);
    return parseJson(answer.text);
  };
  const outputOf = async (taskId: string, key = KEY) =>
    (await query(taskId, key)).output as Record<string, unknown>;

  beforeAll(async () => {
    simulator = await startSimulator({ keys: { omega: [KEY, 'other-omega-key'] } });
  });
  afterAll(() => simulator.close());

  it('goes PENDING, RUNNING, then SUCCEEDED with a video URL, local times and usage', async () => {
    const taskId = await submitted(t2v({ size: '1920*1080', duration: 10 }), 'polls=3');
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await outputOf(taskId)).task_status).toBe('PENDING');
    const running = await outputOf(taskId);
    expect(running).toMatchObject({ task_status: 'RUNNING', submit_time: expect.stringMatching(LOCAL_TIME) });
    expect(running.scheduled_time).toMatch(LOCAL_TIME);
    expect((await outputOf(taskId)).task_status).toBe('RUNNING');
    const done = await query(taskId);
    expect(done.usage).toEqual({ duration: 10, video_count: 1, SR: 1080 });
    const output = done.output as Record<string, unknown>;
    expect(output).toMatchObject({ task_id: taskId, task_status: 'SUCCEEDED', orig_prompt: 'a fox runs' });
    expect(output.end_time).toMatch(LOCAL_TIME);
    const download = await getBytes(String(output.video_url));
    expect(download).toMatchObject({ status: 200, contentType: 'video/mp4' });
    expect((await outputOf(taskId)).video_url).toBe(output.video_url);
  });

  it('takes a first frame and a resolution on i2v and reports its tier', async () => {
    const taskId = await submitted({
      model: 'omega2.6-i2v',
      input: { img_url: 'https://example.test/frame.png' },
      parameters: { resolution: '720P', duration: 15 },
    });
    expect((await query(taskId)).usage).toEqual({ duration: 15, video_count: 1, SR: 720 });
  });

  it.each([
    ['no key', headers(null), 401, 'InvalidApiKey'],
    ['an unknown key', headers('wrong'), 401, 'InvalidApiKey'],
    ['no asynchronous header', headers(KEY, null), 403, 'AccessDenied'],
    ['another asynchronous value', headers(KEY, 'disable'), 403, 'AccessDenied'],
  ])('refuses a submission with %s', async (_, requestHeaders, status, code) => {
    const answer = await submit(t2v(), requestHeaders);
    expect(answer.status).toBe(status);
    expect(parseJson(answer.text)).toEqual({
      request_id: expect.any(String),
      code,
      message: expect.any(String),
    });
  });

  it('explains the missing asynchronous header', async () => {
    const answer = await submit(t2v(), headers(KEY, null));
    expect(parseJson(answer.text).message).toBe('current user api does not support synchronous calls');
  });

  it("answers UNKNOWN for an unknown id and for another key's task", async () => {
    expect((await outputOf('0385dc79-5ff8-4d82-bcb6-2f8b4c1e7a10')).task_status).toBe('UNKNOWN');
    const taskId = await submitted();
    expect((await outputOf(taskId, 'other-omega-key')).task_status).toBe('UNKNOWN');
  });

  it.each([
    ['an x in the size', t2v({ size: '1280x720' }), 'must be written with an asterisk'],
    ['a size of no tier', t2v({ size: '1000*1000' }), 'parameters.size must be one of'],
    [
      'a resolution on t2v',
      t2v({ size: undefined, resolution: '720P' }),
      'parameters.resolution is not supported',
    ],
    ['a duration of 6', t2v({ duration: 6 }), 'parameters.duration must be 5, 10, 15'],
    ['no prompt on t2v', t2v({}, { prompt: '' }), 'input.prompt is required'],
    ['an image on t2v', t2v({}, { img_url: 'https://example.test/f.png' }), 'input.img_url is not supported'],
    ['an unknown model', { ...t2v(), model: 'omega9' }, 'Model not exist'],
    [
      'i2v without a frame',
      { model: 'omega2.6-i2v', input: { prompt: 'x' }, parameters: { resolution: '720P' } },
      'input.img_url is required',
    ],
    [
      'a size on i2v',
      {
        model: 'omega2.6-i2v',
        input: { img_url: 'https://example.test/f.png' },
        parameters: { size: '1280*720' },
      },
      'parameters.size is not supported',
    ],
    ['a seed out of range', t2v({ seed: -1 }), 'parameters.seed must be an integer'],
    ['an unknown shot type', t2v({ shot_type: 'many' }), 'parameters.shot_type must be single or multi'],
  ])('refuses %s with 400 InvalidParameter naming the rule', async (_, body, rule) => {
    const answer = await submit(body);
    expect(answer.status).toBe(400);
    const payload = parseJson(answer.text);
    expect(payload.code).toBe('InvalidParameter');
    expect(payload.message).toContain(rule);
  });

  it.each([
    ['rate_limit', '', 429, 'Throttling.RateQuota'],
    ['rate_limit', 'code=Throttling.AllocationQuota', 429, 'Throttling.AllocationQuota'],
    ['overload', '', 500, 'InternalError'],
    ['auth', '', 401, 'InvalidApiKey'],
    ['auth', 'status=403', 403, 'AccessDenied'],
    ['bad_request', '', 400, 'InvalidParameter'],
    ['content_policy', '', 400, 'DataInspectionFailed'],
    ['insufficient_balance', '', 400, 'Arrearage'],
    ['timeout', 'hang=10', 504, 'RequestTimeOut'],
  ])('scripts error=%s %s as HTTP %s %s', async (errorClass, extra, status, code) => {
    const directives = [`error=${errorClass}`, extra].filter(Boolean).join(';');
    const answer = await submit(t2v(), headers(KEY, 'enable', directives));
    expect(answer.status).toBe(status);
    expect(parseJson(answer.text).code).toBe(code);
  });

  it('adds Retry-After to a scripted rate limit when asked', async () => {
    const answer = await submit(t2v(), headers(KEY, 'enable', 'error=rate_limit;retry_after=3'));
    expect(answer.headers.get('retry-after')).toBe('3');
  });

  it('blocks a prompt at submission and an output as a FAILED task with DataInspectionFailed', async () => {
    const blocked = await submit(t2v(), headers(KEY, 'enable', 'block=prompt'));
    expect(blocked.status).toBe(400);
    expect(parseJson(blocked.text).code).toBe('DataInspectionFailed');
    const taskId = await submitted(t2v(), 'block=output');
    expect(await outputOf(taskId)).toMatchObject({
      task_status: 'FAILED',
      code: 'DataInspectionFailed',
      message: 'Output data may contain inappropriate content.',
    });
  });

  it('fails a task after error_after pending answers with the class code', async () => {
    const taskId = await submitted(t2v(), 'error=overload;error_after=1');
    expect((await outputOf(taskId)).task_status).toBe('PENDING');
    expect(await outputOf(taskId)).toMatchObject({ task_status: 'FAILED', code: 'InternalError' });
  });

  it.each([
    ['canceled', 'CANCELED'],
    ['unknown', 'UNKNOWN'],
    ['failed', 'FAILED'],
    ['paused', 'PAUSED'],
  ])('ends with finish=%s as %s', async (finish, word) => {
    const taskId = await submitted(t2v(), `finish=${finish}`);
    expect((await outputOf(taskId)).task_status).toBe(word);
  });

  it('points the result link at result_host', async () => {
    const taskId = await submitted(t2v(), 'result_host=10.0.0.7');
    expect((await outputOf(taskId)).video_url).toMatch(/^http:\/\/10\.0\.0\.7\/files\/video_/);
  });

  it('hands out an expired link with url_ttl=0', async () => {
    const taskId = await submitted(t2v(), 'url_ttl=0');
    expect((await getBytes(String((await outputOf(taskId)).video_url))).status).toBe(403);
  });

  it('answers unknown /api/v1 paths in its own envelope and counts its routes', async () => {
    const answer = await getUrl(`${simulator.url}/api/v1/nothing`, headers());
    expect(answer.status).toBe(404);
    expect(parseJson(answer.text)).toMatchObject({ code: 'NotFound' });
    const stats = await simulatorStats(simulator.url);
    expect(stats.byRoute['omega:submit']).toBeGreaterThan(0);
    expect(stats.byRoute['omega:query']).toBeGreaterThan(0);
  });
});
