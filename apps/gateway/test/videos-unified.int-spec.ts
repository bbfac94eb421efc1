import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { pngOf } from './image-demo';
import {
  createdFields,
  holdOf,
  seedVideoDemo,
  simulatorCreates,
  startVideoWorker,
  VIDEO_PER_CALL,
  VIDEO_PER_SECOND,
  type VideoDemo,
} from './video-demo';

interface UnifiedVideo {
  id: string;
  task_id: string;
  status: string;
  seconds: string;
  video_url?: string;
}

const PNG_URI = `data:image/png;base64,${pngOf(64, 64).toString('base64')}`;

/**
 * The unified style (`/v1/video/create`, `/v1/video/query`) as a client written from the interface
 * spec uses it, and both precedence rules of the interface, observed in what the simulator received
 * and in the hold.
 */
describe('unified video routes and parameter precedence', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;
  let rung = 0;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const auth = () => ({ authorization: `Bearer ${demo.key}` });
  const post = (path: string, body: unknown) =>
    harness.request<UnifiedVideo & Record<string, unknown>>('POST', path, { body, headers: auth() });
  const query = (id: string) =>
    harness.request<UnifiedVideo>('GET', `/v1/video/query?id=${encodeURIComponent(id)}`, { headers: auth() });

  it.each([
    [[], 0],
    [[PNG_URI], 1],
    [[PNG_URI, PNG_URI], 2],
  ])(
    'creates from %#: images select text, first-frame and first-and-last-frame video',
    async (images, files) => {
      const prompt = `A bridge at dusk, ${files} image(s)`;
      const created = await post('/v1/video/create', { model: 'zeta-video-3', prompt, images, duration: 10 });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ task_id: created.body.id, status: 'queued', seconds: '10' });

      let answer = await query(created.body.task_id);
      await waitFor(async () => {
        answer = await query(created.body.task_id);
        return answer.body.status === 'completed';
      }, 30_000);
      expect(answer.body.video_url).toBe(`${harness.url}/v1/videos/${created.body.id}/content`);
      const download = await fetch(answer.body.video_url ?? '', { headers: auth() });
      expect(download.status).toBe(200);
      expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);

      const [received] = await simulatorCreates(harness, prompt);
      expect(createdFields(received)).toMatchObject({ seconds: '10', input_reference_files: files });
    },
  );

  it('answers the unified query with 400 without an id and 404 for an id that is not yours', async () => {
    expect((await harness.request('GET', '/v1/video/query', { headers: auth() })).status).toBe(400);
    const unknown = await query('video_AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'not_found' } });
  });

  it('declares the video routes and their answers in the OpenAPI document', async () => {
    const document = await harness.request<{ paths: Record<string, Record<string, unknown>> }>(
      'GET',
      '/docs/openapi.json',
    );
    const { paths } = document.body;
    expect(Object.keys(paths['/v1/videos']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/v1/videos/{video_id}']).sort()).toEqual(['delete', 'get']);
    expect(Object.keys(paths['/v1/videos/{video_id}/remix'])).toEqual(['post']);
    expect(Object.keys(paths['/v1/video/create'])).toEqual(['post']);
    expect(Object.keys(paths['/v1/video/query'])).toEqual(['get']);
    expect(paths['/v1/videos'].post).toMatchObject({
      requestBody: {
        content: { 'multipart/form-data': expect.any(Object), 'application/json': expect.any(Object) },
      },
    });
  });

  /** Creates on /v1/videos and answers the seconds and size the simulator received, and the hold. */
  async function observed(fields: Record<string, unknown>) {
    const prompt = `Precedence rung ${++rung}`;
    const created = await post('/v1/videos', { model: 'zeta-video-3', prompt, ...fields });
    expect(created.status).toBe(200);
    await waitFor(async () => (await simulatorCreates(harness, prompt)).length === 1, 30_000);
    const [received] = await simulatorCreates(harness, prompt);
    const { seconds, size } = createdFields(received) as { seconds: string; size: string };
    const hold = await holdOf(harness, created.body.id);
    return { seconds: Number(seconds), size, held: hold?.amount };
  }

  const heldFor = (seconds: number, tier: '720p' | '1080p') =>
    VIDEO_PER_CALL + BigInt(seconds) * VIDEO_PER_SECOND[tier];

  it.each([
    [
      'top-level seconds over duration and metadata',
      { seconds: '10', duration: 15, metadata: { seconds: 6 } },
      10,
    ],
    ['duration over metadata', { duration: 15, metadata: { seconds: 6, duration: 10 } }, 15],
    [
      'metadata.seconds over metadata.duration',
      { metadata: { seconds: 10, duration: 6, video_duration: 15 } },
      10,
    ],
    ['metadata.duration over metadata.video_duration', { metadata: { duration: 15, video_duration: 6 } }, 15],
    ['metadata.video_duration last', { metadata: { video_duration: 10 } }, 10],
    ['the family default without any', {}, 6],
  ])('duration: %s', async (_rung, fields, seconds) => {
    expect(await observed(fields)).toEqual({ seconds, size: '720P', held: heldFor(seconds, '720p') });
  });

  it('duration: the interface default of 5 seconds where the family has none of its own', async () => {
    const prompt = 'Precedence rung open family';
    const created = await post('/v1/videos', { model: 'nu-1', prompt });
    await waitFor(async () => (await simulatorCreates(harness, prompt)).length === 1, 30_000);
    const [received] = await simulatorCreates(harness, prompt);
    expect(createdFields(received)).toMatchObject({ seconds: '5' });
    expect((await holdOf(harness, created.body.id))?.amount).toBe(
      VIDEO_PER_CALL + 5n * VIDEO_PER_SECOND.default,
    );
  });

  it.each([
    [
      'metadata.output_config.resolution over size',
      { size: '720P', metadata: { output_config: { resolution: '1080P' } } },
      '1080P',
      '1080p',
    ],
    ['size without it', { size: '1080P' }, '1080P', '1080p'],
    ['the model default without either', {}, '720P', '720p'],
  ] as const)('resolution: %s', async (_rung, fields, size, tier) => {
    expect(await observed({ seconds: '6', ...fields })).toEqual({ seconds: 6, size, held: heldFor(6, tier) });
  });

  it('bills a fixed-duration family for its fixed seconds, whatever was asked', async () => {
    const prompt = 'A fixed ten seconds';
    const created = await post('/v1/videos', { model: 'zeta-video-3-pro', prompt, seconds: '6' });
    expect(created.body.seconds).toBe('10');
    expect((await holdOf(harness, created.body.id))?.amount).toBe(heldFor(10, '720p'));
  });
});
