import { solidImage } from '../image-bytes.util';
import { RunningSimulator, startSimulator } from '../server';
import { postSignedBetaCall } from '../testing/beta-request-signer.util';
import { getBytes, postJson } from '../testing/simulator-client.util';

const SUBMIT = 'Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const GET_RESULT = 'Action=CVSync2AsyncGetResult&Version=2022-08-31';
const URL_IMAGE = 'https://images.test/frame.png';

interface Envelope {
  code: number;
  message: string;
  data: Record<string, unknown> | null;
}

describe('beta Action API: video tasks', () => {
  let simulator: RunningSimulator;

  const signedCall = async (query: string, body: unknown, directives = '') => {
    const answer = await postSignedBetaCall(
      simulator.url,
      {
        accessKey: 'sim-beta-ak',
        secretKey: 'sim-beta-sk',
        path: '/',
        rawQuery: query,
        body: JSON.stringify(body),
      },
      { directives },
    );
    return { status: answer.status, envelope: JSON.parse(answer.text) as Envelope, headers: answer.headers };
  };
  const submit = async (body: Record<string, unknown>, directives = '') => {
    const answer = await signedCall(SUBMIT, body, directives);
    expect(answer.status).toBe(200);
    return String(answer.envelope.data?.['task_id']);
  };
  const result = (reqKey: string, taskId: string) =>
    signedCall(GET_RESULT, { req_key: reqKey, task_id: taskId });

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it.each([
    ['beta_t2v_v30', {}],
    ['beta_t2v_v30_1080p', { aspect_ratio: '21:9', frames: 361 }],
    ['beta_i2v_first_v30', { image_urls: [URL_IMAGE] }],
    ['beta_i2v_first_tail_v30_1080', { image_urls: [URL_IMAGE, URL_IMAGE] }],
    ['beta_ti2v_v30_pro', { image_urls: [URL_IMAGE] }],
    ['beta_vgfm_i2v_l20', { binary_data_base64: [solidImage('png', 640, 360).base64], frames: 241 }],
  ])('runs %s to a done task whose video_url serves an MP4', async (reqKey, fields) => {
    const taskId = await submit({ req_key: reqKey, prompt: 'a kite', ...fields }, 'polls=2');
    const statuses = [];
    for (let query = 0; query < 2; query += 1)
      statuses.push((await result(reqKey, taskId)).envelope.data?.['status']);
    expect(statuses).toEqual(['in_queue', 'generating']);
    const done = await result(reqKey, taskId);
    expect(done.envelope).toMatchObject({
      code: 10000,
      data: { status: 'done', video_url: expect.stringMatching(/\/files\/video_\w+\.mp4$/) },
    });
    const video = await getBytes(String(done.envelope.data?.['video_url']));
    expect(video.contentType).toBe('video/mp4');
    expect(video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('gives the video link an hour, or what url_ttl says', async () => {
    const taskId = await submit({ req_key: 'beta_t2v_v30', prompt: 'a kite' });
    const url = String((await result('beta_t2v_v30', taskId)).envelope.data?.['video_url']);
    const expires = Date.parse((await fetch(url)).headers.get('expires') ?? '');
    expect(expires - Date.now()).toBeGreaterThan(3500_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(3600_000);
    const expired = await submit({ req_key: 'beta_t2v_v30', prompt: 'a kite' }, 'url_ttl=0');
    expect(
      (await getBytes(String((await result('beta_t2v_v30', expired)).envelope.data?.['video_url']))).status,
    ).toBe(403);
  });

  it('blocks a video output with 50516, fails after error_after, and ends in a scripted word', async () => {
    const blocked = await result(
      'beta_t2v_v30',
      await submit({ req_key: 'beta_t2v_v30', prompt: 'x' }, 'block=output'),
    );
    expect(blocked.status).toBe(400);
    expect(blocked.envelope).toMatchObject({ code: 50516, message: 'Post Video Risk Not Pass', data: null });
    const failing = await submit(
      { req_key: 'beta_t2v_v30', prompt: 'x' },
      'error=rate_limit;code=50430;error_after=0',
    );
    expect((await result('beta_t2v_v30', failing)).envelope).toMatchObject({ code: 50430, data: null });
    const paused = await submit({ req_key: 'beta_t2v_v30', prompt: 'x' }, 'finish=paused');
    expect((await result('beta_t2v_v30', paused)).envelope.data).toEqual({ status: 'paused' });
  });

  it('runs video tasks through the relay form on /bt too', async () => {
    const relay = (query: string, body: unknown) =>
      postJson(`${simulator.url}/bt?${query}`, body, { authorization: 'Bearer sk-sim-beta-relay' });
    const submitted = JSON.parse(
      (await relay(SUBMIT, { req_key: 'beta_t2v_v30', prompt: 'x' })).text,
    ) as Envelope;
    const taskId = String(submitted.data?.['task_id']);
    const done = JSON.parse(
      (await relay(GET_RESULT, { req_key: 'beta_t2v_v30', task_id: taskId })).text,
    ) as Envelope;
    expect(done.data).toMatchObject({ status: 'done', video_url: expect.any(String) });
  });

  it.each([
    ['an image on a text key', { req_key: 'beta_t2v_v30', prompt: 'x', image_urls: [URL_IMAGE] }],
    ['no image on a first-frame key', { req_key: 'beta_i2v_first_v30', prompt: 'x' }],
    ['one image on a first-and-last key', { req_key: 'beta_i2v_first_tail_v30', image_urls: [URL_IMAGE] }],
    ['two images on the pro key', { req_key: 'beta_ti2v_v30_pro', image_urls: [URL_IMAGE, URL_IMAGE] }],
    ['no prompt in text to video', { req_key: 'beta_t2v_v30' }],
    ['frames that are no 24 × s + 1', { req_key: 'beta_t2v_v30', prompt: 'x', frames: 120 }],
    ['frames for 20 seconds', { req_key: 'beta_t2v_v30', prompt: 'x', frames: 481 }],
    ['an aspect ratio off the list', { req_key: 'beta_t2v_v30', prompt: 'x', aspect_ratio: '2:1' }],
    [
      'an image with a short side under 320',
      { req_key: 'beta_i2v_first_v30', binary_data_base64: [solidImage('png', 640, 300).base64] },
    ],
    [
      'an image over 3:1',
      { req_key: 'beta_i2v_first_v30', binary_data_base64: [solidImage('png', 1300, 400).base64] },
    ],
    [
      'URLs and Base64 together',
      {
        req_key: 'beta_i2v_first_tail_v30',
        image_urls: [URL_IMAGE],
        binary_data_base64: [solidImage('png', 640, 360).base64],
      },
    ],
  ])('refuses %s with 400 50205', async (_case, body) => {
    const answer = await signedCall(SUBMIT, body);
    expect(answer.status).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 50205, data: null });
  });
});
