import type { INestApplicationContext } from '@nestjs/common';
import type OpenAI from 'openai';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import {
  holdOf,
  seedVideoDemo,
  settledCapture,
  simulatorCreates,
  startVideoWorker,
  untilVideoEnds,
  videoClient,
  type VideoDemo,
  type VideoObject,
} from './video-demo';

/** How video tasks end besides completing: each releases its hold in full and charges nothing. */
describe('video task endings', () => {
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

  const create = (body: Record<string, unknown>, on: OpenAI = client) =>
    on.post('/videos', { body }) as Promise<VideoObject>;

  it('fails a video the upstream fails, releasing its hold', async () => {
    const created = await create({
      model: 'delta-2',
      prompt: 'Breaks later [[sim error=overload; error_after=1]]',
    });
    expect((await holdOf(harness, created.id))?.status).toBe('open');
    const ended = await untilVideoEnds(client, created.id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'upstream_error' } });
    expect(ended).not.toHaveProperty('video_url');
    expect(await settledCapture(harness, created.id)).toBe(0n);
  });

  it('fails a video the upstream refuses at create for its content, charging nothing', async () => {
    const created = await create({ model: 'delta-2', prompt: 'Something forbidden [[sim block=prompt]]' });
    const ended = await untilVideoEnds(client, created.id);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'content_policy_violation' } });
    expect(await settledCapture(harness, created.id)).toBe(0n);
  });

  describe('when the create makes the first step itself (TASK_SUBMIT_AT_CREATE_MS)', () => {
    let submitting: OpenAI;
    beforeAll(async () => {
      const instance = await harness.startInstance({ taskSubmitAtCreateMs: 10_000 });
      submitting = videoClient(instance.url, demo.key);
    });

    it('answers a refusal of the upstream moderation at create with 400 content_policy_violation, charging nothing', async () => {
      const prompt = 'Refused at once [[sim block=prompt]]';
      const options = { body: { model: 'delta-2', prompt }, headers: { 'Idempotency-Key': 'refused-once' } };
      const refused = await submitting.post('/videos', options).catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400, code: 'content_policy_violation' });
      expect(refused).toHaveProperty('type', 'invalid_request_error');

      const [task] = await harness.query<{ id: string; status: string }>(
        'select id, status from tasks where request::text like $1',
        [`%${prompt.slice(0, 15)}%`],
      );
      expect(task.status).toBe('failed');
      expect(await settledCapture(harness, task.id)).toBe(0n);
      // Refused means not made: the task is nowhere to be seen, and the same key is refused again
      // without a second upstream create.
      await expect(submitting.videos.retrieve(task.id)).rejects.toMatchObject({ status: 404 });
      const listed = await submitting.videos.list({ limit: 100 });
      expect(listed.data.map((video) => video.id)).not.toContain(task.id);
      const again = await submitting.post('/videos', options).catch((error: unknown) => error);
      expect(again).toMatchObject({ status: 400, code: 'content_policy_violation' });
      expect(await simulatorCreates(harness, prompt.slice(0, 15))).toHaveLength(1);
    });

    it('answers a task the upstream accepted already submitted, then completes it once', async () => {
      const prompt = 'Accepted at once [[sim polls=1]]';
      const created = await create({ model: 'delta-2', prompt }, submitting);
      const [row] = await harness.query<{ has_handle: boolean }>(
        'select upstream_handle is not null as has_handle from tasks where id = $1',
        [created.id],
      );
      expect(row.has_handle).toBe(true);
      expect(await untilVideoEnds(submitting, created.id)).toMatchObject({ status: 'completed' });
      expect(await simulatorCreates(harness, prompt.slice(0, 16))).toHaveLength(1);
      expect(await settledCapture(harness, created.id)).toBeGreaterThan(0n);
    });

    it('answers at once an upstream slower than the budget, and the worker takes the task over', async () => {
      const slow = await harness.startInstance({ taskSubmitAtCreateMs: 200 });
      const prompt = 'Slow to accept [[sim latency=1500]]';
      const created = await create({ model: 'delta-2', prompt }, videoClient(slow.url, demo.key));
      expect(created.status).toBe('queued');
      expect(await untilVideoEnds(submitting, created.id)).toMatchObject({ status: 'completed' });
      expect(await simulatorCreates(harness, prompt.slice(0, 14))).toHaveLength(1);
    });
  });

  it('fails a video past its deadline with the reason, releasing its hold', async () => {
    const shortDeadline: GatewayInstance = await harness.startInstance({
      videoTaskDeadlines: { defaultMs: 1_500, byFamily: new Map() },
    });
    const created = await create(
      { model: 'delta-2', prompt: 'Never done [[sim task_ms=600000]]' },
      videoClient(shortDeadline.url, demo.key),
    );
    const ended = await untilVideoEnds(client, created.id);
    expect(ended).toMatchObject({
      status: 'failed',
      error: { code: 'deadline_exceeded', message: expect.stringContaining('deadline') },
    });
    expect(await settledCapture(harness, created.id)).toBe(0n);
  });

  it('cancels a running video on delete: the upstream is told, the hold released', async () => {
    const prompt = 'Still rendering [[sim task_ms=600000]]';
    const created = await create({ model: 'delta-2', prompt });
    await waitFor(() => runningRow(created.id), 30_000);

    const answer = (await client.videos.delete(created.id)) as unknown as VideoObject;
    expect(answer).toMatchObject({ id: created.id, object: 'video', status: 'cancelled', error: null });
    expect(await settledCapture(harness, created.id)).toBe(0n);
    const [received] = await simulatorCreates(harness, prompt);
    expect(received).toBeDefined();
    const [{ upstream_handle: handle }] = await harness.query<{ upstream_handle: { videoId: string } }>(
      'select upstream_handle from tasks where id = $1',
      [created.id],
    );
    const upstream = await fetch(`${harness.simulatorUrl}/v1/videos/${handle.videoId}`, {
      headers: { authorization: 'Bearer sim-compat-key' },
    });
    expect(((await upstream.json()) as { status: string }).status).toBe('cancelled');

    // Cancelled is final: the worker does not bring it back, and a second delete hides it.
    expect((await client.videos.retrieve(created.id)).status).toBe('cancelled');
    expect(await client.videos.delete(created.id)).toMatchObject({ deleted: true });
  });

  it('leaves the books balanced, with nothing held', async () => {
    const books = await harness.settledBooks(demo.accountId);
    expect(books.balanced).toBe(true);
  });

  /** A task the worker submitted: it has an upstream handle, so a delete can reach the upstream. */
  async function runningRow(taskId: string): Promise<boolean> {
    const [row] = await harness.query<{ status: string; has_handle: boolean }>(
      'select status, upstream_handle is not null as has_handle from tasks where id = $1',
      [taskId],
    );
    return row?.status === 'processing' && row.has_handle;
  }
});
