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
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { holdOf, newVideoAccount, settledCapture, startVideoWorker } from './video-demo';

interface Submission {
  task_id: string;
  status: string;
  created_at: number;
}

interface Creations {
  id: string;
  task_id: string;
  status: string;
  state: string;
  err_code: string;
  payload: string;
  creations: Array<{ id: string; url: string }>;
}

const PNG = dataUrlOf('image/png', pngBytes(256, 256));
const OTHER_PNG = dataUrlOf('image/png', pngBytes(320, 240));

/**
 * The alpha official routes as a client written from upstreams §3 and the interface spec uses them:
 * each endpoint submits its own mode upstream (the simulator's journal), the creations query reaches
 * `completed` with the gateway's content URL, which downloads; money settles once; errors are the
 * family envelope naming the field and the rule, with nothing held.
 */
describe('alpha official routes (/alpha/ent/v2)', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let worker: INestApplicationContext;
  let demo: AlphaDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedAlphaDemo(harness);
    worker = await startVideoWorker(harness);
    // Creations are fetched from the simulator's result URLs, on a loopback address.
    gateway = await startTrustingInstance(harness, []);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const bearer = (key = demo.key) => ({ authorization: `Bearer ${key}` });
  const submit = (endpoint: string, body: unknown, key?: string) =>
    harness.request<Submission & AlphaError>('POST', `/alpha/ent/v2/${endpoint}`, {
      body,
      headers: bearer(key),
      baseUrl: gateway.url,
    });
  const creations = (taskId: string, key?: string) =>
    harness.request<Creations & AlphaError>(
      'GET',
      `/alpha/ent/v2/task/${encodeURIComponent(taskId)}/creations`,
      {
        headers: bearer(key),
        baseUrl: gateway.url,
      },
    );
  const completed = (taskId: string) =>
    until(
      () => creations(taskId),
      (answer) => answer.body.status !== 'processing',
    );

  it.each([
    ['text2video', {}, 'alphaq2-pro', undefined],
    ['img2video', { images: [PNG] }, 'alphaq2-pro', [PNG]],
    ['start-end2video', { images: [PNG, OTHER_PNG] }, 'alphaq2-pro', [PNG, OTHER_PNG]],
    ['reference2video', { subjects: [{ id: 'kite', images: [PNG] }] }, 'alphaq2', undefined],
  ])(
    '%s submits its own mode, completes, and its creation downloads',
    async (endpoint, inputs, wireModel, images) => {
      const prompt = `A red kite over the dunes, via ${endpoint}, @kite`;
      const before = Math.floor(Date.now() / 1000);
      const submitted = await submit(endpoint, { model: 'alphaq2-pro', prompt, ...inputs });
      expect(submitted.status).toBe(200);
      expect(submitted.body).toEqual({
        task_id: expect.stringMatching(/^video_/),
        status: 'processing',
        created_at: expect.any(Number),
      });
      expect(Number.isInteger(submitted.body.created_at)).toBe(true);
      expect(submitted.body.created_at).toBeGreaterThanOrEqual(before - 1);

      const received = await alphaSubmissionOf(harness, prompt);
      expect(received.endpoint).toBe(endpoint);
      expect(received.body).toMatchObject({ model: wireModel, prompt, duration: 5, resolution: '720p' });
      expect(received.body.images).toEqual(images);
      if (endpoint === 'reference2video')
        expect(received.body.subjects).toEqual([{ id: 'kite', images: [PNG] }]);

      const answer = await completed(submitted.body.task_id);
      expect(answer.body).toMatchObject({
        task_id: submitted.body.task_id,
        status: 'completed',
        state: 'success',
      });
      const url = `${gateway.url}/v1/videos/${submitted.body.task_id}/content`;
      expect(answer.body.creations).toEqual([{ id: submitted.body.task_id, url }]);
      const download = await fetch(url, { headers: bearer() });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toContain('video/mp4');
      expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);
      expect(await settledCapture(harness, submitted.body.task_id)).toBe(
        ALPHA_PER_CALL + 5n * ALPHA_PER_SECOND['720p'],
      );
    },
  );

  it('passes the reference-to-video request of the interface spec through, and holds for its seconds', async () => {
    const prompt = '@cat chases @dog around the garden';
    const fields = {
      model: 'alphaq2-pro',
      subjects: [
        { id: 'cat', images: [PNG, OTHER_PNG], voice_id: 'voice-cat' },
        { id: 'dog', images: [PNG] },
      ],
      prompt,
      audio: false,
      voice_id: 'voice-global',
      is_rec: false,
      bgm: true,
      duration: 7,
      seed: 42,
      resolution: '1080p',
      off_peak: false,
      watermark: true,
      wm_position: 2,
      wm_url: 'https://marks.example/wm.png',
      payload: 'client-correlation-7',
      meta_data: '{"campaign":"spring"}',
    };
    const submitted = await submit('reference2video', fields);
    expect(submitted.status).toBe(200);
    expect((await holdOf(harness, submitted.body.task_id))?.amount).toBe(
      ALPHA_PER_CALL + 7n * ALPHA_PER_SECOND['1080p'],
    );

    const received = await alphaSubmissionOf(harness, prompt);
    expect(received.endpoint).toBe('reference2video');
    const { audio: _audioIsQ3Only, ...passed } = fields;
    expect(received.body).toEqual({
      ...passed,
      model: 'alphaq2',
      subjects: [
        { id: 'cat', images: [PNG, OTHER_PNG], voice_id: 'voice-cat' },
        { id: 'dog', images: [PNG] },
      ],
    });
    const answer = await completed(submitted.body.task_id);
    expect(answer.body).toMatchObject({ status: 'completed', payload: 'client-correlation-7' });
  });

  it('reads an alpha task on /v1/videos too: it is a video task like any other', async () => {
    const submitted = await submit('text2video', { model: 'alphaq3-pro', prompt: 'Waves on a pier' });
    await completed(submitted.body.task_id);
    const video = await harness.request<{ id: string; status: string; model: string }>(
      'GET',
      `/v1/videos/${submitted.body.task_id}`,
      { headers: bearer(), baseUrl: gateway.url },
    );
    expect(video.body).toMatchObject({
      id: submitted.body.task_id,
      status: 'completed',
      model: 'alphaq3-pro',
    });
  });

  it('answers an upstream failure as failed with its err_code, and releases the hold', async () => {
    const submitted = await submit('text2video', {
      model: 'alphaq2-pro',
      prompt: 'A storm at sea [[sim block=output]]',
    });
    const answer = await completed(submitted.body.task_id);
    expect(answer.body).toMatchObject({
      status: 'failed',
      state: 'failed',
      err_code: 'CreationPolicyViolation',
      creations: [],
    });
    expect(await settledCapture(harness, submitted.body.task_id)).toBe(0n);
  });

  // Where a channel offers it, the 404 names its route (model-task-routes.int-spec.ts); none does here.
  it('refuses a model of another family as not found, holding nothing', async () => {
    const { key, accountId } = await newVideoAccount(harness);
    const answer = await submit('text2video', { model: 'delta-2', prompt: 'x' }, key);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      code: 404,
      reason: 'ModelUnavailable',
      message: "The model 'delta-2' does not exist or is not available.",
    });
    expect(await holdsOf(harness, accountId)).toBe(0);
  });

  it.each([
    ['a missing model', 'text2video', { prompt: 'x' }, 'FieldLacking', 'model'],
    ['no prompt on text2video', 'text2video', { model: 'alphaq2-pro' }, 'FieldLacking', 'prompt is required'],
    [
      'images on text2video',
      'text2video',
      { model: 'alphaq2-pro', prompt: 'x', images: [PNG] },
      'FieldUnwanted',
      'images is not accepted on text2video',
    ],
    [
      'subjects on img2video',
      'img2video',
      { model: 'alphaq2-pro', images: [PNG], subjects: [{ id: 'a', images: [PNG] }] },
      'FieldUnwanted',
      'subjects',
    ],
    [
      'no image on img2video',
      'img2video',
      { model: 'alphaq2-pro', prompt: 'x' },
      'FieldLacking',
      'images is required on img2video',
    ],
    [
      'one image on start-end2video',
      'start-end2video',
      { model: 'alphaq2-pro', images: [PNG] },
      'FieldItemCountOutOfRange',
      'exactly 2 images',
    ],
    [
      'neither subjects nor images on reference2video',
      'reference2video',
      { model: 'alphaq2-pro', prompt: 'x' },
      'FieldLacking',
      'subjects',
    ],
    [
      'a duration of 11 s on q2',
      'text2video',
      { model: 'alphaq2-pro', prompt: 'x', duration: 11 },
      'FieldInvalid',
      'duration must be a whole number from 1 to 10',
    ],
    [
      'a duration that is no integer',
      'text2video',
      { model: 'alphaq2-pro', prompt: 'x', duration: '5' },
      'FieldInvalid',
      'duration',
    ],
    [
      '4:3 on q1',
      'text2video',
      { model: 'alphaq1', prompt: 'x', aspect_ratio: '4:3' },
      'FieldInvalid',
      'aspect_ratio must be one of 16:9, 9:16, 1:1',
    ],
    [
      '720p on q1',
      'text2video',
      { model: 'alphaq1', prompt: 'x', resolution: '720p' },
      'FieldInvalid',
      'resolution must be one of 1080p',
    ],
    [
      'audio on q2',
      'text2video',
      { model: 'alphaq2-pro', prompt: 'x', audio: true },
      'FieldInvalid',
      'only q3 models generate audio',
    ],
    [
      'a watermark position of 5',
      'text2video',
      { model: 'alphaq2-pro', prompt: 'x', wm_position: 5 },
      'FieldInvalid',
      'wm_position',
    ],
  ])('refuses %s in the alpha envelope, holding nothing', async (_case, endpoint, body, reason, rule) => {
    const { key, accountId } = await newVideoAccount(harness);
    const answer = await submit(endpoint, body, key);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 400,
      reason,
      message: expect.stringContaining(rule),
      metadata: { trace_id: answer.headers.get('x-request-id') },
    });
    expect(await holdsOf(harness, accountId)).toBe(0);
  });

  it("answers another account's task, an unknown id and a malformed one 404 TaskNotFound", async () => {
    const submitted = await submit('text2video', { model: 'alphaq2-pro', prompt: 'Mine only' });
    const stranger = await newVideoAccount(harness);
    const answers: Array<HttpAnswer<Creations & AlphaError>> = [
      await creations(submitted.body.task_id, stranger.key),
      await creations('video_AAAAAAAAAAAAAAAAAAAAAA'),
      await creations('../../admin'),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({
        code: 404,
        reason: 'TaskNotFound',
        metadata: { trace_id: expect.any(String) },
      });
    }
    expect((await creations(submitted.body.task_id)).status).toBe(200);
  });

  it('refuses a request without a key, or a Bearer key that is not one, in the alpha envelope', async () => {
    const none = await harness.request<AlphaError>('POST', '/alpha/ent/v2/text2video', {
      body: { model: 'alphaq2-pro', prompt: 'x' },
      baseUrl: gateway.url,
    });
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ code: 401, reason: 'Unauthorized' });
    const wrong = await creations('video_AAAAAAAAAAAAAAAAAAAAAA', 'sk-not-a-key');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 401, reason: 'Unauthorized' });
  });

  it('declares the alpha routes in the OpenAPI document', async () => {
    const document = await harness.request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/docs/openapi.json',
    );
    for (const endpoint of ['text2video', 'img2video', 'start-end2video', 'reference2video']) {
      expect(Object.keys(document.body.paths[`/alpha/ent/v2/${endpoint}`])).toEqual(['post']);
    }
    expect(Object.keys(document.body.paths['/alpha/ent/v2/task/{task_id}/creations'])).toEqual(['get']);
  });
});
