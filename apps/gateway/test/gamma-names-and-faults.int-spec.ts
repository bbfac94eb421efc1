import { holdsOf, until } from './alpha-demo';
import {
  GAMMA_PER_CALL,
  GAMMA_PER_SECOND,
  gammaCreateOf,
  REF_AUDIO_NAME,
  REF_AUDIO_PER_CALL,
  REF_AUDIO_PER_SECOND_1080P,
  seedGammaDemo,
  type GammaDemo,
  type GammaEnvelope,
} from './gamma-demo';
import type { GatewayHarness, GatewayInstance } from './gateway-harness';
import { holdOf, newVideoAccount, settledCapture, startVideoStack, type VideoStack } from './video-demo';

interface VideoAnswer {
  id: string;
  task_id?: string;
  status: string;
  video_url?: string;
  error?: { code: string; message: string } | null;
}

const FIRST = 'https://img.example.test/first.png';
const REFERENCE = 'https://img.example.test/reference.png';
const CLIP = 'https://img.example.test/motion.mp4';

/**
 * The combined billing names decomposed onto the §5.4 fields (observed in what the simulator
 * received) and held at their price rows; upstream failures (a refused create, a failed task, on
 * either wire) ending the task failed with its hold released; bad input refused in the route's
 * envelope with nothing held.
 */
describe('gamma combined names, faults and refusals', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let stack: VideoStack<GammaDemo>;
  let demo: GammaDemo;
  let marker = 0;

  beforeAll(async () => {
    stack = await startVideoStack(seedGammaDemo);
    ({ harness, gateway, demo } = stack);
  });
  afterAll(() => stack?.close());

  const auth = (key = demo.key) => ({ authorization: `Bearer ${key}` });
  const call = <T>(method: string, path: string, body?: unknown, key?: string) =>
    harness.request<T>(method, path, { body, headers: auth(key), baseUrl: gateway.url });
  const prompt = (what: string) => `${what} #${++marker}`;
  const finished = (id: string) =>
    until(
      () => call<VideoAnswer>('GET', `/v1/videos/${id}`),
      (answer) => !['queued', 'processing'].includes(answer.body.status),
    );

  describe('combined billing names', () => {
    it(`${REF_AUDIO_NAME} on /v1/videos: 3.0-Omni, 1080P, a reference image, audio; held by its own price row`, async () => {
      const text = prompt('A choir in a cathedral');
      const created = await call<VideoAnswer>('POST', '/v1/videos', {
        model: REF_AUDIO_NAME,
        prompt: text,
        images: [REFERENCE],
        seconds: '10',
      });
      expect(created.status).toBe(200);
      const received = await gammaCreateOf(harness, text);
      expect(received.body).toEqual({
        SubAppId: expect.any(Number),
        ModelName: 'Gamma',
        ModelVersion: '3.0-Omni',
        Prompt: text,
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: REFERENCE }],
        OutputConfig: { Duration: 10, Resolution: '1080P', AudioGeneration: 'Enabled' },
        SessionId: created.body.id,
      });
      const held = REF_AUDIO_PER_CALL + 10n * REF_AUDIO_PER_SECOND_1080P;
      expect((await holdOf(harness, created.body.id))?.amount).toBe(held);
      expect((await finished(created.body.id)).body.status).toBe('completed');
      expect(await settledCapture(harness, created.body.id)).toBe(held);
    });

    it('gamma-2.6-motion-pro-1080p on /v1/video/create: 2.6, motion_control, 1080P, the level never sent; held by gamma-2.6', async () => {
      const text = prompt('A dancer copies the clip');
      const created = await call<VideoAnswer>('POST', '/v1/video/create', {
        model: 'gamma-2.6-motion-pro-1080p',
        prompt: text,
        images: [FIRST],
        metadata: { video_url: CLIP },
      });
      expect(created.status).toBe(200);
      const received = await gammaCreateOf(harness, text);
      expect(received.body).toMatchObject({
        ModelVersion: '2.6',
        SceneType: 'motion_control',
        FileInfos: [
          { Type: 'Url', Category: 'Image', Url: FIRST },
          { Type: 'Url', Category: 'Video', Url: CLIP },
        ],
        OutputConfig: { Duration: 5, Resolution: '1080P' },
      });
      expect(received.entry.body).not.toMatch(/motion_level|MotionLevel|"pro"/);
      expect((await holdOf(harness, created.body.id))?.amount).toBe(
        GAMMA_PER_CALL + 5n * GAMMA_PER_SECOND['1080p'],
      );
    });

    it('gamma-avatar-720p on /gamma/v1/videos/image2video: the avatar scene on 2.6 at 720P; held by gamma-avatar', async () => {
      const text = prompt('A portrait speaks');
      const created = await call<GammaEnvelope>('POST', '/gamma/v1/videos/image2video', {
        model_name: 'gamma-avatar-720p',
        prompt: text,
        image: FIRST,
      });
      expect(created.status).toBe(200);
      const taskId = created.body.data?.task_id ?? '';
      const received = await gammaCreateOf(harness, text);
      expect(received.body).toMatchObject({
        ModelVersion: '2.6',
        SceneType: 'avatar_i2v',
        FileInfos: [{ Type: 'Url', Category: 'Image', Url: FIRST }],
        OutputConfig: { Duration: 5, Resolution: '720P' },
        SessionId: taskId,
      });
      expect((await holdOf(harness, taskId))?.amount).toBe(GAMMA_PER_CALL + 5n * GAMMA_PER_SECOND['720p']);
    });
  });

  describe('upstream failures end the task failed, its hold released in full', () => {
    it('a create the upstream refuses in Response.Error (HTTP 200)', async () => {
      const created = await call<VideoAnswer>('POST', '/v1/videos', {
        model: 'gamma-2.6',
        prompt: prompt('Refused at once [[sim error=bad_request]]'),
      });
      const video = await finished(created.body.id);
      expect(video.body).toMatchObject({ status: 'failed', error: { code: 'invalid_request' } });
      expect(await settledCapture(harness, created.body.id)).toBe(0n);
    });

    it('a task that FINISHes with a content rejection, read on /gamma as failed with why', async () => {
      const created = await call<GammaEnvelope>('POST', '/gamma/v1/videos/text2video', {
        model_name: 'gamma-v3-omni',
        prompt: prompt('Rejected later [[sim error=content_policy;error_after=1]]'),
      });
      const taskId = created.body.data?.task_id ?? '';
      const answer = await until(
        () => call<GammaEnvelope>('GET', `/gamma/v1/videos/text2video/${taskId}`),
        (queried) => !['submitted', 'processing'].includes(queried.body.data?.task_status ?? ''),
      );
      expect(answer.body.data).toMatchObject({
        task_status: 'failed',
        task_status_msg: expect.stringContaining('content audit'),
      });
      expect(answer.body.data?.task_result).toBeUndefined();
      expect((await call<VideoAnswer>('GET', `/v1/videos/${taskId}`)).body.error?.code).toBe(
        'content_policy_violation',
      );
      expect(await settledCapture(harness, taskId)).toBe(0n);
    });

    it('a task failed on the official-compatible wire', async () => {
      const created = await call<VideoAnswer>('POST', '/v1/videos', {
        model: 'gamma-2.5',
        prompt: prompt('Failed upstream [[sim error=overload;error_after=1]]'),
      });
      expect((await finished(created.body.id)).body.status).toBe('failed');
      expect(await settledCapture(harness, created.body.id)).toBe(0n);
    });

    it('a result URL at a private address is refused, never fetched (502)', async () => {
      const created = await call<VideoAnswer>('POST', '/v1/videos', {
        model: 'gamma-2.6',
        prompt: prompt('Stored privately [[sim result_host=10.0.0.1]]'),
      });
      expect((await finished(created.body.id)).body.status).toBe('completed');
      const download = await call<{ error: { type: string } }>(
        'GET',
        `/v1/videos/${created.body.id}/content`,
      );
      expect(download.status).toBe(502);
      expect(download.body.error.type).toBe('server_error');
    });
  });

  describe('bad input: a 4xx in the route’s envelope, nothing held', () => {
    let stranger: { key: string; accountId: string };

    beforeAll(async () => {
      stranger = await newVideoAccount(harness);
    });

    it.each([
      ['text2video', { model_name: 'gamma-v2-6', prompt: 'x', duration: '11' }, 400, 'seconds'],
      ['text2video', { model_name: 'gamma-v2-6', prompt: 'x', aspect_ratio: '4:3' }, 400, 'aspect_ratio'],
      ['text2video', { model_name: 'gamma-v2-5-turbo', prompt: 'x', sound: 'on' }, 400, 'no sound'],
      ['text2video', { model_name: 'gamma-v2-6' }, 400, 'prompt'],
      ['text2video', { model_name: 'gamma-v2-6', prompt: 'x', image: FIRST }, 400, 'image'],
      ['image2video', { model_name: 'gamma-v2-6', prompt: 'x' }, 400, 'image'],
      ['image2video', { model_name: 'gamma-v2-6', image: 'data:image/png;base64,AAAA' }, 400, 'image'],
      ['omni-video', { model_name: 'gamma-v3-omni', prompt: 'x', duration: '16' }, 400, 'seconds'],
      ['text2video', { model_name: 'gamma-9', prompt: 'x' }, 404, 'gamma-9'],
      ['text2video', 'not an object', 400, 'object'],
    ])('/gamma/v1/videos/%s %j → %i, code 1201, naming %s', async (endpoint, body, status, words) => {
      const answer = await call<GammaEnvelope>('POST', `/gamma/v1/videos/${endpoint}`, body, stranger.key);
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({
        code: 1201,
        message: expect.stringContaining(words),
        request_id: expect.any(String),
      });
    });

    it.each([
      [{ model: 'gamma-2.6', prompt: 'x', seconds: '15' }, 'seconds'],
      [{ model: 'gamma-2.5-audio', prompt: 'x' }, 'model'],
      [{ model: 'gamma-2.6-1080p', prompt: 'x', size: '720P' }, 'size'],
      [
        { model: 'gamma-2.6', prompt: 'x', metadata: { output_config: { resolution: '4K' } } },
        'metadata.output_config.resolution',
      ],
      [{ model: 'gamma-2.6', prompt: 'x', metadata: { scene_type: 'dance' } }, 'metadata.scene_type'],
    ])('/v1/videos %j → 400 naming %s', async (body, param) => {
      const answer = await call<{ error: { param: string } }>('POST', '/v1/videos', body, stranger.key);
      expect(answer.status).toBe(400);
      expect(answer.body.error.param).toBe(param);
    });

    it('answers a missing key 401 (1000), and a task not the caller’s or no task 404 (1203)', async () => {
      const unauthenticated = await harness.request<GammaEnvelope>('POST', '/gamma/v1/videos/text2video', {
        body: { model_name: 'gamma-v2-6', prompt: 'x' },
        baseUrl: gateway.url,
      });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body).toMatchObject({ code: 1000 });

      const mine = await call<GammaEnvelope>('POST', '/gamma/v1/videos/text2video', {
        model_name: 'gamma-v2-6',
        prompt: prompt('Only mine'),
      });
      const taskId = mine.body.data?.task_id ?? '';
      for (const path of [
        `/gamma/v1/videos/text2video/${taskId}`,
        '/gamma/v1/videos/text2video/video_AAAAAAAAAAAAAAAAAAAAAA',
        `/gamma/v1/videos/text2video/${'x'.repeat(90)}`,
        `/gamma/v1/videos/elsewhere/${taskId}`,
      ]) {
        const answer = await call<GammaEnvelope>('GET', path, undefined, stranger.key);
        expect(answer.status).toBe(404);
        expect(answer.body).toMatchObject({ code: 1203 });
      }
      expect((await call<GammaEnvelope>('GET', `/gamma/v1/videos/text2video/${taskId}`)).status).toBe(200);
    });

    it('held nothing for any of them', async () => {
      expect(await holdsOf(harness, stranger.accountId)).toBe(0);
    });
  });
});
