import { DEFAULT_GAMMA_KEY } from '@gateway/simulators';
import { until } from './alpha-demo';
import {
  GAMMA_PER_CALL,
  GAMMA_PER_SECOND,
  gammaCreateOf,
  seedGammaDemo,
  type GammaDemo,
  type GammaEnvelope,
} from './gamma-demo';
import type { GatewayHarness, GatewayInstance } from './gateway-harness';
import { settledCapture, startVideoStack, type VideoStack } from './video-demo';

interface VideoAnswer {
  id: string;
  task_id?: string;
  status: string;
  seconds: string;
  video_url?: string;
}

const SUB_APP_ID = Number(DEFAULT_GAMMA_KEY.split('|')[0]);
const FIRST = 'https://img.example.test/first.png';
const LAST = 'https://img.example.test/last.png';
const REFERENCE = 'https://img.example.test/reference.png';
const CLIP = 'https://img.example.test/motion.mp4';

/**
 * gamma end to end through every submission style of upstreams §11 (`/v1/videos`, `/v1/video/create`
 * with `/v1/video/query`, `/gamma/v1/videos/*`), on a signed channel (§5.1–§5.5) and on a channel that
 * speaks the official-compatible wire upstream with an HS256 token (§5.8): what the simulator
 * received, the task reaching completed, the gateway's content URL downloading, the money settling
 * once at the price held.
 */
describe('gamma video through every submission style', () => {
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

  const auth = () => ({ authorization: `Bearer ${demo.key}` });
  const call = <T>(method: string, path: string, body?: unknown) =>
    harness.request<T>(method, path, { body, headers: auth(), baseUrl: gateway.url });
  const prompt = (what: string) => `${what} #${++marker}`;
  const contentUrl = (id: string) => `${gateway.url}/v1/videos/${id}/content`;
  const finishedVideo = (path: string) =>
    until(
      () => call<VideoAnswer>('GET', path),
      (answer) => !['queued', 'processing'].includes(answer.body.status),
    );

  async function expectDownloadable(url: string): Promise<void> {
    const download = await fetch(url, { headers: auth() });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('video/mp4');
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(4, 8)
        .toString('ascii'),
    ).toBe('ftyp');
  }

  it('/v1/videos: signs the create with SessionId = the task id, completes, downloads, settles once', async () => {
    const text = prompt('A fox runs through snow');
    const created = await call<VideoAnswer>('POST', '/v1/videos', {
      model: 'gamma-2.6',
      prompt: text,
      seconds: '10',
      aspect_ratio: '16:9',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^video_/),
      status: 'queued',
      seconds: '10',
    });

    const received = await gammaCreateOf(harness, text);
    expect(received.wire).toBe('signed');
    expect(received.entry.authenticated).toBe(true);
    expect(received.body).toEqual({
      SubAppId: SUB_APP_ID,
      ModelName: 'Gamma',
      ModelVersion: '2.6',
      Prompt: text,
      OutputConfig: { Duration: 10, Resolution: '720P', AspectRatio: '16:9' },
      SessionId: created.body.id,
    });

    const video = await finishedVideo(`/v1/videos/${created.body.id}`);
    expect(video.body).toMatchObject({ status: 'completed', video_url: contentUrl(created.body.id) });
    await expectDownloadable(contentUrl(created.body.id));
    expect(await settledCapture(harness, created.body.id)).toBe(
      GAMMA_PER_CALL + 10n * GAMMA_PER_SECOND['720p'],
    );
  });

  it('/v1/video/create and /v1/video/query: one image is the first frame, 1080P by size', async () => {
    const text = prompt('A lighthouse at night');
    const created = await call<VideoAnswer>('POST', '/v1/video/create', {
      model: 'gamma-3.0-omni',
      prompt: text,
      images: [FIRST],
      size: '1080P',
      duration: 15,
    });
    expect(created.status).toBe(200);
    const received = await gammaCreateOf(harness, text);
    expect(received.body).toMatchObject({
      ModelVersion: '3.0-Omni',
      FileInfos: [{ Type: 'Url', Category: 'Image', Url: FIRST }],
      OutputConfig: { Duration: 15, Resolution: '1080P' },
      SessionId: created.body.task_id,
    });

    const video = await finishedVideo(`/v1/video/query?id=${created.body.task_id}`);
    expect(video.body).toMatchObject({ task_id: created.body.id, status: 'completed' });
    await expectDownloadable(video.body.video_url ?? '');
    expect(await settledCapture(harness, created.body.id)).toBe(
      GAMMA_PER_CALL + 15n * GAMMA_PER_SECOND['1080p'],
    );
  });

  describe('the official-compatible routes (/gamma/v1/videos/*, upstreams §5.8)', () => {
    it.each([
      [
        'text2video',
        { model_name: 'gamma-v2-6', duration: '10', aspect_ratio: '9:16', sound: 'on' },
        {
          ModelVersion: '2.6',
          OutputConfig: { Duration: 10, Resolution: '720P', AspectRatio: '9:16', AudioGeneration: 'Enabled' },
        },
        '10.0',
      ],
      [
        'image2video',
        { model_name: 'gamma-v2-6', image: FIRST, image_tail: LAST, negative_prompt: 'rain' },
        {
          ModelVersion: '2.6',
          NegativePrompt: 'rain',
          FileInfos: [{ Type: 'Url', Category: 'Image', Url: FIRST }],
          LastFrameUrl: LAST,
          OutputConfig: { Duration: 5, Resolution: '720P' },
        },
        '5.0',
      ],
      [
        'omni-video',
        {
          model_name: 'gamma-v3-omni',
          duration: '12',
          image_list: [{ image_url: REFERENCE }],
          video_list: [{ video_url: CLIP, refer_type: 'feature' }],
        },
        {
          ModelVersion: '3.0-Omni',
          FileInfos: [
            { Type: 'Url', Category: 'Image', Url: REFERENCE },
            { Type: 'Url', Category: 'Video', Url: CLIP, ReferenceType: 'feature' },
          ],
          OutputConfig: { Duration: 12, Resolution: '720P' },
        },
        '12.0',
      ],
    ])(
      '%s: answers submitted in the §5.8 envelope, reaches succeed, its video downloads',
      async (endpoint, fields, wire, duration) => {
        const text = prompt(`A kite over the dunes via ${endpoint}`);
        const before = Date.now();
        const created = await call<GammaEnvelope>('POST', `/gamma/v1/videos/${endpoint}`, {
          prompt: text,
          external_task_id: `mine-${marker}`,
          ...fields,
        });
        expect(created.status).toBe(200);
        expect(created.body).toEqual({
          code: 0,
          message: 'SUCCEED',
          request_id: expect.any(String),
          data: {
            task_id: expect.stringMatching(/^video_/),
            task_status: 'submitted',
            task_status_msg: '',
            task_info: { external_task_id: `mine-${marker}` },
            created_at: expect.any(Number),
            updated_at: expect.any(Number),
          },
        });
        const taskId = created.body.data?.task_id ?? '';
        // Milliseconds, not seconds.
        expect(created.body.data?.created_at).toBeGreaterThanOrEqual(before - 1000);
        expect(created.body.data?.created_at).toBeLessThanOrEqual(Date.now() + 1000);

        const received = await gammaCreateOf(harness, text);
        expect(received.body).toMatchObject({ ...wire, Prompt: text, SessionId: taskId });

        const answer = await until(
          () => call<GammaEnvelope>('GET', `/gamma/v1/videos/${endpoint}/${taskId}`),
          (queried) => !['submitted', 'processing'].includes(queried.body.data?.task_status ?? ''),
        );
        expect(answer.body.data).toMatchObject({
          task_id: taskId,
          task_status: 'succeed',
          task_result: { videos: [{ id: taskId, url: contentUrl(taskId), duration }] },
        });
        expect(answer.body.data?.updated_at).toBeGreaterThanOrEqual(answer.body.data?.created_at ?? Infinity);
        await expectDownloadable(contentUrl(taskId));
        // The same task on the OpenAI-style route.
        expect((await call<VideoAnswer>('GET', `/v1/videos/${taskId}`)).body.status).toBe('completed');
      },
    );

    it('names the fields no gamma channel takes in x-gateway-warning', async () => {
      const created = await call<GammaEnvelope>('POST', '/gamma/v1/videos/text2video', {
        model_name: 'gamma-v2-6',
        prompt: prompt('A harbour at dawn'),
        cfg_scale: 0.5,
        camera_control: { type: 'simple' },
      });
      expect(created.status).toBe(200);
      expect(created.headers.get('x-gateway-warning')).toBe(
        'cfg_scale is ignored: gamma channels have no such option | camera_control is ignored: gamma channels have no such option',
      );
    });
  });

  it('declares the gamma routes and their envelope in the OpenAPI document', async () => {
    const document = await harness.request<{
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    }>('GET', '/docs/openapi.json');
    for (const endpoint of ['text2video', 'image2video', 'omni-video']) {
      expect(Object.keys(document.body.paths[`/gamma/v1/videos/${endpoint}`])).toEqual(['post']);
    }
    expect(Object.keys(document.body.paths['/gamma/v1/videos/{endpoint}/{task_id}'])).toEqual(['get']);
    expect(Object.keys(document.body.components.schemas)).toEqual(
      expect.arrayContaining(['GammaVideoRequestDto', 'GammaTaskEnvelopeView', 'GammaImageItemDto']),
    );
  });

  describe('a channel speaking the official-compatible wire upstream (AccessKey|SecretKey, HS256 token)', () => {
    it('runs an image2video task from /gamma: the simulator verified the token and received the §5.8 body', async () => {
      const text = prompt('A heron takes off');
      const created = await call<GammaEnvelope>('POST', '/gamma/v1/videos/image2video', {
        model_name: 'gamma-v2-5-turbo',
        prompt: text,
        image: FIRST,
        image_tail: LAST,
        duration: '10',
      });
      expect(created.status).toBe(200);
      const taskId = created.body.data?.task_id ?? '';
      const received = await gammaCreateOf(harness, text);
      expect(received).toMatchObject({ wire: 'official', endpoint: 'image2video' });
      expect(received.entry.authenticated).toBe(true);
      expect(received.body).toEqual({
        model_name: 'gamma-v2-5-turbo',
        prompt: text,
        mode: 'std',
        duration: '10',
        image: FIRST,
        image_tail: LAST,
        external_task_id: taskId,
      });
      const answer = await until(
        () => call<GammaEnvelope>('GET', `/gamma/v1/videos/image2video/${taskId}`),
        (queried) => !['submitted', 'processing'].includes(queried.body.data?.task_status ?? ''),
      );
      expect(answer.body.data?.task_status).toBe('succeed');
      await expectDownloadable(contentUrl(taskId));
      expect(await settledCapture(harness, taskId)).toBe(GAMMA_PER_CALL + 10n * GAMMA_PER_SECOND['720p']);
    });

    it('runs a text task from /v1/videos on text2video', async () => {
      const text = prompt('Rain on a tin roof');
      const created = await call<VideoAnswer>('POST', '/v1/videos', {
        model: 'gamma-2.5',
        prompt: text,
        aspect_ratio: '1:1',
      });
      const received = await gammaCreateOf(harness, text);
      expect(received).toMatchObject({ wire: 'official', endpoint: 'text2video' });
      expect(received.body).toEqual({
        model_name: 'gamma-v2-5-turbo',
        prompt: text,
        mode: 'std',
        duration: '5',
        aspect_ratio: '1:1',
        external_task_id: created.body.id,
      });
      const video = await finishedVideo(`/v1/videos/${created.body.id}`);
      expect(video.body.status).toBe('completed');
      await expectDownloadable(contentUrl(created.body.id));
    });
  });
});
