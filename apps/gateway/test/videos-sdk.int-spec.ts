import type { INestApplicationContext } from '@nestjs/common';
import OpenAI, { toFile } from 'openai';
import { waitFor } from '@gateway/testing';
import { GatewayHarness } from './gateway-harness';
import { pngOf } from './image-demo';
import {
  createdFields,
  newVideoAccount,
  seedVideoDemo,
  settledCapture,
  simulatorCreates,
  startVideoWorker,
  untilVideoEnds,
  videoClient,
  VIDEO_PER_CALL,
  VIDEO_PER_SECOND,
  type VideoDemo,
  type VideoObject,
} from './video-demo';

/** The official client's videos resource against the compat families, worker-video running beside. */
describe('videos through the official client (compat families)', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;
  let client: OpenAI;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness);
    client = videoClient(harness.url, demo.key);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  /** A JSON create through the client's generic post: `videos.create` always sends a form. */
  const createAsJson = (body: Record<string, unknown>) =>
    client.post<VideoObject>('/videos', { body }) as Promise<VideoObject>;

  it.each([
    ['delta-2', '1280x720', '8', '720p'],
    ['epsilon_3_1', '1920x1080', '8', '1080p'],
    ['zeta-video-3', '1080P', '10', '1080p'],
  ])(
    '%s: a JSON create answers queued at once, completes, and captures its seconds',
    async (model, size, seconds, tier) => {
      const prompt = `A lighthouse in ${model} json`;
      const created = await createAsJson({ model, prompt, size, seconds });
      expect(created).toMatchObject({
        object: 'video',
        model,
        status: 'queued',
        progress: 0,
        prompt,
        seconds,
        size,
        completed_at: null,
        remixed_from_video_id: null,
        error: null,
      });
      expect(created.id).toMatch(/^video_/);
      expect(created).not.toHaveProperty('video_url');

      const done = await untilVideoEnds(client, created.id);
      expect(done).toMatchObject({ status: 'completed', progress: 100 });
      expect(done.video_url).toBe(`${harness.url}/v1/videos/${created.id}/content`);
      expect(done.completed_at).toEqual(expect.any(Number));

      const [received] = await simulatorCreates(harness, prompt);
      expect(createdFields(received)).toMatchObject({ model, size, seconds });
      expect(await settledCapture(harness, created.id)).toBe(
        VIDEO_PER_CALL + BigInt(seconds) * VIDEO_PER_SECOND[tier],
      );
    },
  );

  it('creates as multipart with input_reference files, and downloads the bytes the simulator made', async () => {
    const prompt = 'A kite over dunes, from a first frame';
    const created = (await client.videos.create({
      model: 'delta-2',
      prompt,
      size: '1280x720',
      input_reference: await toFile(pngOf(1280, 720), 'frame.png', { type: 'image/png' }),
    })) as VideoObject;
    const done = await untilVideoEnds(client, created.id);
    expect(done.status).toBe('completed');
    const [received] = await simulatorCreates(harness, prompt);
    expect(received.form?.files).toEqual([
      expect.objectContaining({ field: 'input_reference', contentType: 'image/png' }),
    ]);

    const content = await client.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    const [{ upstream_handle: handle }] = await harness.query<{ upstream_handle: { videoId: string } }>(
      'select upstream_handle from tasks where id = $1',
      [created.id],
    );
    const direct = await fetch(`${harness.simulatorUrl}/v1/videos/${handle.videoId}/content`, {
      headers: { authorization: 'Bearer sim-compat-key' },
    });
    expect(bytes.equals(Buffer.from(await direct.arrayBuffer()))).toBe(true);
  });

  it('sends two zeta input_reference files as the first and last frames', async () => {
    const prompt = 'A door opening, first and last frame';
    const frame = () => toFile(pngOf(64, 64), 'frame.png', { type: 'image/png' });
    const created = (await client.videos.create({
      model: 'zeta-video-3',
      prompt,
      // Repeated parts: the client writes an array as `input_reference[]`.
      input_reference: [
        await frame(),
        await frame(),
      ] as unknown as OpenAI.Videos.VideoCreateParams['input_reference'],
    })) as VideoObject;
    expect((await untilVideoEnds(client, created.id)).status).toBe('completed');
    const [received] = await simulatorCreates(harness, prompt);
    expect(received.form?.files.map((file) => file.field)).toEqual(['input_reference', 'input_reference']);
    expect(received.form?.fields['seconds']).toBe('6');
  });

  it('lists the account’s videos page by page, and deletes a finished one from listings', async () => {
    const account = await newVideoAccount(harness);
    const own = videoClient(harness.url, account.key);
    const ids: string[] = [];
    for (const index of [1, 2, 3]) {
      const video = (await own.post('/videos', {
        body: { model: 'delta-2', prompt: `list ${index}` },
      })) as VideoObject;
      ids.push(video.id);
    }
    for (const id of ids) await untilVideoEnds(own, id);

    const first = await own.videos.list({ limit: 2 });
    expect(first.data.map((video) => video.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const listed: string[] = [];
    for await (const video of own.videos.list({ limit: 2, order: 'asc' })) listed.push(video.id);
    expect(listed).toEqual(ids);

    const deleted = await own.videos.delete(ids[1]);
    expect(deleted).toEqual({ id: ids[1], object: 'video.deleted', deleted: true });
    await expect(own.videos.retrieve(ids[1])).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    const after = await harness.request<{ data: Array<{ id: string }> }>('GET', '/v1/videos', {
      headers: { authorization: `Bearer ${account.key}` },
    });
    expect(after.body.data.map((video) => video.id)).toEqual([ids[2], ids[0]]);
    expect(after.body).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[0], has_more: false });
  });

  it('remixes a completed delta video on the channel that made it', async () => {
    const source = await untilVideoEnds(
      client,
      (await createAsJson({ model: 'delta-2', prompt: 'A cat', seconds: '8' })).id,
    );
    const prompt = 'The same cat, now in the rain';
    const remix = (await client.videos.remix(source.id, { prompt })) as VideoObject;
    expect(remix).toMatchObject({
      status: 'queued',
      remixed_from_video_id: source.id,
      seconds: '8',
      model: 'delta-2',
    });
    expect((await untilVideoEnds(client, remix.id)).status).toBe('completed');
    const [received] = await simulatorCreates(harness, prompt);
    expect(received.path).toMatch(/^\/v1\/videos\/video_\w+\/remix$/);
  });

  it('extends an epsilon video with epsilon_3_1-extend, and says a family without remix has none', async () => {
    const epsilon = await untilVideoEnds(
      client,
      (await createAsJson({ model: 'epsilon_3_1', prompt: 'A harbour', size: '1280x720' })).id,
    );
    const extension = (await client.post(`/videos/${epsilon.id}/remix`, {
      body: { prompt: 'The boats leave', model: 'epsilon_3_1-extend' },
    })) as VideoObject;
    expect(extension).toMatchObject({
      model: 'epsilon_3_1-extend',
      seconds: '8',
      remixed_from_video_id: epsilon.id,
    });
    expect((await untilVideoEnds(client, extension.id)).status).toBe('completed');

    const zeta = await untilVideoEnds(
      client,
      (await createAsJson({ model: 'zeta-video-3', prompt: 'A field' })).id,
    );
    const refused = await client.videos
      .remix(zeta.id, { prompt: 'More wind' })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).message).toMatch(/no remix/);
  });

  it('refuses to remix a video that has not completed', async () => {
    const running = await createAsJson({ model: 'delta-2', prompt: 'Slow [[sim task_ms=60000]]' });
    const refused = await client.videos.remix(running.id, { prompt: 'x' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    // Cancelled for free once the upstream accepted it (its wire cancels), not while being submitted.
    await waitFor(async () => {
      const [row] = await harness.query<{ accepted: boolean }>(
        'select upstream_handle is not null as accepted from tasks where id = $1',
        [running.id],
      );
      return row.accepted;
    }, 30_000);
    await client.videos.delete(running.id);
  });
});
