import type { INestApplicationContext } from '@nestjs/common';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { lambdaClient, seedMusicDemo, startMusicWorker, submitted, type MusicDemo } from './lambda-demo';
import { newVideoAccount, seedVideoDemo, settledCapture, videoClient, type VideoDemo } from './video-demo';

interface TaskObject {
  id: string;
  object: string;
  kind: string;
  model: string;
  status: string;
  progress: number;
  created_at: number;
  completed_at: number | null;
  result: { urls: string[]; images_base64?: string[] } | null;
  error: { code: string; message: string } | null;
  cost_micros: string | null;
}

/**
 * `GET /v1/tasks/{id}` and its poll hint, end to end: the gateway, worker-video (step jobs and the
 * music poll cycle) and the simulators. Each task is read unfinished (a Retry-After of whole seconds)
 * and completed (the gateway's own URLs, the ledger's capture, no Retry-After).
 */
describe('neutral task query', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let trusting: GatewayInstance;
  let videos: VideoDemo;
  let music: MusicDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    videos = await seedVideoDemo(harness);
    music = await seedMusicDemo(harness);
    worker = await startMusicWorker(harness);
    trusting = await harness.startSimulatorTrustingInstance();
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const getTask = (key: string, id: string, base = harness.url) =>
    fetch(`${base}/v1/tasks/${encodeURIComponent(id)}`, { headers: { authorization: `Bearer ${key}` } });

  async function untilCompleted(key: string, id: string): Promise<Response> {
    let answer: Response | undefined;
    await waitFor(async () => {
      answer = await getTask(key, id);
      return ((await answer.clone().json()) as TaskObject).status === 'completed';
    }, 30_000);
    return answer as Response;
  }

  function expectRetryAfter(answer: Response): void {
    const header = answer.headers.get('retry-after');
    expect(header).toMatch(/^\d+$/);
    expect(Number(header)).toBeGreaterThanOrEqual(1);
  }

  it('reads a video while it runs (with a poll hint) and once completed (its content URL, its capture)', async () => {
    const created = await videoClient(harness.url, videos.key).videos.create({
      model: 'delta-2' as never,
      prompt: 'a slow tide [[sim task_ms=2500]]',
    });
    const running = await getTask(videos.key, created.id);
    expect(running.status).toBe(200);
    expectRetryAfter(running);
    const view = (await running.json()) as TaskObject;
    expect(view).toMatchObject({
      id: created.id,
      object: 'task',
      kind: 'video',
      model: 'delta-2',
      result: null,
    });
    expect(['queued', 'processing']).toContain(view.status);
    expect(view.cost_micros).toBeNull();

    // The same hint on the family's own query.
    const retrieved = await fetch(`${harness.url}/v1/videos/${created.id}`, {
      headers: { authorization: `Bearer ${videos.key}` },
    });
    if (((await retrieved.clone().json()) as { status: string }).status !== 'completed') {
      expectRetryAfter(retrieved);
    }

    const done = await untilCompleted(videos.key, created.id);
    const captured = await settledCapture(harness, created.id);
    const final = (await (await getTask(videos.key, created.id)).json()) as TaskObject;
    expect(done.headers.get('retry-after')).toBeNull();
    expect(final).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(final.completed_at).toEqual(expect.any(Number));
    expect(final.result?.urls).toEqual([`${harness.url}/v1/videos/${created.id}/content`]);
    expect(final.cost_micros).toBe(captured.toString());
    const content = await fetch(final.result!.urls[0].replace(harness.url, trusting.url), {
      headers: { authorization: `Bearer ${videos.key}` },
    });
    expect(content.status).toBe(200);
    expect((await content.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('reads a music task the same way, its clips at the gateway', async () => {
    const client = lambdaClient(harness, music.key);
    const id = await submitted(client, 'MUSIC', {
      prompt: 'rain on glass [[sim polls=4]]',
      title: 'Glass',
      tags: 'ambient',
      mv: 'lambda-v4',
    });
    const running = await getTask(music.key, id);
    expect(running.status).toBe(200);
    expectRetryAfter(running);
    expect(await running.json()).toMatchObject({ id, kind: 'music', result: null, cost_micros: null });
    const fetched = await fetch(`${harness.url}/lambda/fetch/${id}`, {
      headers: { authorization: `Bearer ${music.key}` },
    });
    if (((await fetched.clone().json()) as { data: { status: string } }).data.status !== 'SUCCESS') {
      expectRetryAfter(fetched);
    }

    const done = await untilCompleted(music.key, id);
    expect(done.headers.get('retry-after')).toBeNull();
    const captured = await settledCapture(harness, id);
    const final = (await (await getTask(music.key, id)).json()) as TaskObject;
    expect(final.cost_micros).toBe(captured.toString());
    expect(final.result?.urls.length).toBeGreaterThan(0);
    for (const url of final.result!.urls)
      expect(url.startsWith(`${harness.url}/lambda/content/${id}/`)).toBe(true);
    const audio = final.result!.urls.find((url) => url.endsWith('/audio')) as string;
    const bytes = await fetch(audio.replace(harness.url, trusting.url), {
      headers: { authorization: `Bearer ${music.key}` },
    });
    expect(bytes.status).toBe(200);
  });

  it('answers the same 404 for another account’s task, an unknown id, a NUL and an over-long id', async () => {
    const created = await videoClient(harness.url, videos.key).videos.create({
      model: 'delta-2' as never,
      prompt: 'someone else’s [[sim task_ms=1000]]',
    });
    const stranger = await newVideoAccount(harness);
    const answers = await Promise.all([
      getTask(stranger.key, created.id),
      getTask(videos.key, 'video_AAAAAAAAAAAAAAAAAAAAAA'),
      getTask(videos.key, 'video_\u0000AAAAAAAAAAAAAAAAAAAAA'),
      getTask(videos.key, `video_${'A'.repeat(90)}`),
    ]);
    for (const answer of answers) {
      expect([400, 404]).toContain(answer.status);
      expect(answer.headers.get('retry-after')).toBeNull();
      expect(await answer.json()).toMatchObject({ error: { type: expect.any(String) } });
    }
    expect(answers[0].status).toBe(404);
    expect(await (await getTask(stranger.key, created.id)).text()).toBe(
      await (await getTask(videos.key, 'video_AAAAAAAAAAAAAAAAAAAAAA')).text(),
    );
  });
});
