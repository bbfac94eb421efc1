import type { INestApplicationContext } from '@nestjs/common';
import {
  ALPHA_PER_CALL,
  ALPHA_PER_SECOND,
  alphaSubmissionOf,
  dataUrlOf,
  holdsOf,
  pngBytes,
  seedAlphaDemo,
  startTrustingInstance,
  until,
  type AlphaDemo,
  type AlphaError,
} from './alpha-demo';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { newVideoAccount, settledCapture, startVideoWorker, untilVideoEnds, videoClient } from './video-demo';

const FIRST = dataUrlOf('image/png', pngBytes(256, 256));
const LAST = dataUrlOf('image/png', pngBytes(320, 240));
const THIRD = dataUrlOf('image/png', pngBytes(240, 320));
const FIRST_URL = 'https://frames.example/first.png';
const LAST_URL = 'https://frames.example/last.png';

interface Created {
  id: string;
  task_id?: string;
  status: string;
  error?: { message: string; param: string | null; code: string };
}

/**
 * alpha through the generic video routes (upstreams §11): `POST /v1/videos` in JSON (first frame in
 * `image`, last frame in `metadata.last_frame_url`, references in `images`, up to 3) and multipart,
 * and `POST /v1/video/create`; each placement observed in what the simulator received, the task
 * completing on the OpenAI-style query and its content downloading.
 */
describe('alpha through /v1/videos and /v1/video/create', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let worker: INestApplicationContext;
  let demo: AlphaDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedAlphaDemo(harness);
    worker = await startVideoWorker(harness);
    gateway = await startTrustingInstance(harness, []);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const auth = (key = demo.key) => ({ authorization: `Bearer ${key}` });
  const post = (path: string, body: unknown, key?: string) =>
    harness.request<Created>('POST', path, { body, headers: auth(key), baseUrl: gateway.url });

  it.each([
    ['image: the start frame', { image: FIRST }, 'img2video', [FIRST]],
    [
      'image and metadata.last_frame_url: the first and last frames',
      { image: FIRST, metadata: { last_frame_url: LAST } },
      'start-end2video',
      [FIRST, LAST],
    ],
    [
      'frames by URL',
      { image: FIRST_URL, metadata: { last_frame_url: LAST_URL } },
      'start-end2video',
      [FIRST_URL, LAST_URL],
    ],
    ['images: up to 3 references', { images: [FIRST, LAST, THIRD] }, 'reference2video', [FIRST, LAST, THIRD]],
  ])('JSON %s', async (placement, fields, endpoint, images) => {
    const prompt = `A lighthouse at dawn; ${placement}`;
    const created = await post('/v1/videos', { model: 'alphaq2-pro', prompt, seconds: '6', ...fields });
    expect(created.status).toBe(200);
    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.endpoint).toBe(endpoint);
    expect(received.body).toMatchObject({
      model: endpoint === 'reference2video' ? 'alphaq2' : 'alphaq2-pro',
      images,
      duration: 6,
    });
  });

  it('refuses a fourth reference image in OpenAI style, holding nothing', async () => {
    const { key, accountId } = await newVideoAccount(harness);
    const created = await post(
      '/v1/videos',
      { model: 'alphaq2-pro', prompt: 'Four', images: [FIRST, LAST, THIRD, FIRST] },
      key,
    );
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ param: 'images[0]', code: 'invalid_request' });
    expect(created.body.error?.message).toContain('at most 3 reference images in OpenAI style, not 4');
    expect(await holdsOf(harness, accountId)).toBe(0);
  });

  it('passes alpha fields given beside the OpenAI-style ones', async () => {
    const prompt = 'A paper crane, with its own seed';
    await post('/v1/videos', { model: 'alphaq2-pro', prompt, seed: 77, bgm: true, payload: 'mine' });
    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.body).toMatchObject({ seed: 77, bgm: true, payload: 'mine' });
  });

  it('multipart: one input_reference file is the start frame; completes, downloads, settles once', async () => {
    const prompt = 'A tram crossing a bridge, from a form';
    const form = new FormData();
    form.set('model', 'alphaq2-pro');
    form.set('prompt', prompt);
    form.set('seconds', '4');
    form.set('metadata', JSON.stringify({ output_config: { resolution: '1080P' } }));
    form.set('input_reference', new Blob([pngBytes(256, 256)], { type: 'image/png' }), 'frame.png');
    const response = await fetch(`${gateway.url}/v1/videos`, { method: 'POST', headers: auth(), body: form });
    expect(response.status).toBe(200);
    const created = (await response.json()) as Created;

    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.endpoint).toBe('img2video');
    expect(received.body).toMatchObject({ duration: 4, resolution: '1080p' });
    expect(received.body.images).toEqual([expect.stringMatching(/^data:image\/png;base64,/)]);

    const video = await untilVideoEnds(videoClient(gateway.url, demo.key), created.id);
    expect(video.status).toBe('completed');
    expect(video.video_url).toBe(`${gateway.url}/v1/videos/${created.id}/content`);
    const download = await fetch(video.video_url ?? '', { headers: auth() });
    expect(download.status).toBe(200);
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect(await settledCapture(harness, created.id)).toBe(ALPHA_PER_CALL + 4n * ALPHA_PER_SECOND['1080p']);
  });

  it.each([
    ['one image: the start frame', { images: [FIRST] }, 'img2video'],
    ['two images: the first and last frames', { images: [FIRST, LAST] }, 'start-end2video'],
    [
      'subjects: reference to video',
      { subjects: [{ id: 'owl', images: [FIRST], voice_id: 'hoot' }] },
      'reference2video',
    ],
  ])('/v1/video/create with %s', async (_case, fields, endpoint) => {
    const prompt = `An owl in the snow @owl, unified ${endpoint}`;
    const created = await post('/v1/video/create', { model: 'alphaq3-pro', prompt, duration: 8, ...fields });
    expect(created.status).toBe(200);
    expect(created.body.task_id).toBe(created.body.id);
    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.endpoint).toBe(endpoint);
    expect(received.body).toMatchObject({ model: 'alphaq3-pro', duration: 8 });
    if (endpoint === 'reference2video') {
      expect(received.body.subjects).toEqual([{ id: 'owl', images: [FIRST], voice_id: 'hoot' }]);
    }
    const query = await until(
      () =>
        harness.request<{ status: string }>('GET', `/v1/video/query?id=${created.body.id}`, {
          headers: auth(),
          baseUrl: gateway.url,
        }),
      (answer) => answer.body.status === 'completed' || answer.body.status === 'failed',
    );
    expect(query.body.status).toBe('completed');
  });

  it('answers a task made on /v1/videos on the alpha creations query too', async () => {
    const created = await post('/v1/videos', { model: 'alphaq2-turbo', prompt: 'Kites over a beach' });
    const answer = await until(
      () =>
        harness.request<{ status: string; creations: Array<{ url: string }> } & AlphaError>(
          'GET',
          `/alpha/ent/v2/task/${created.body.id}/creations`,
          { headers: auth(), baseUrl: gateway.url },
        ),
      (query) => query.body.status !== 'processing',
    );
    expect(answer.body).toMatchObject({
      status: 'completed',
      creations: [{ url: `${gateway.url}/v1/videos/${created.body.id}/content` }],
    });
  });
});
