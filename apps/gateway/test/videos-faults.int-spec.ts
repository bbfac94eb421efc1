import type { INestApplicationContext } from '@nestjs/common';
import type OpenAI from 'openai';
import { Client } from 'pg';
import { TEST_POSTGRES_ADMIN_URL, waitFor, whileDatabaseRefusesConnections } from '@gateway/testing';
import { GatewayHarness, type HttpAnswer } from './gateway-harness';
import { TcpOutageProxy } from './tcp-outage.proxy';
import { expectSettledOnce, priceOf720p, simulatorRouteCount } from './video-fault.checks';
import {
  holdOf,
  seedVideoDemo,
  simulatorCreatesByKey,
  startVideoWorker,
  VIDEO_PER_CALL,
  VIDEO_PER_SECOND,
  videoClient,
  type VideoDemo,
  type VideoObject,
} from './video-demo';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/**
 * `nu-*` videos get a short deadline, the others keep the default hour. Two tests wait it out, so it
 * is short; still far more than the worker's 20 ms polls need to get a handle and poll a few times.
 */
const NU_DEADLINE_MS = 4_000;
/**
 * worker-video's fault settings: the sweep for tasks without a step job runs often and looks at tasks
 * idle for 1.5 s; a submission without an answer is sent again (same Idempotency-Key) after 1 s. The
 * worker reaches Redis directly: only the gateway's connection goes through the proxy.
 */
const WORKER_ENV = {
  REDIS_URL,
  TASK_SWEEP_INTERVAL_MS: '500',
  TASK_STRANDED_AFTER_MS: '1500',
  TASK_SUBMISSION_TIMEOUT_MS: '1000',
};
const FOUR_SECONDS_720P = priceOf720p(4);
const ENDED = ['completed', 'failed', 'cancelled'];

/**
 * An operator's bad day under the video routes and worker-video: Postgres refusing connections, the
 * gateway's Redis gone at create, an upstream refusing or failing, the worker stopped mid-poll, a task
 * that never finishes. Every task ends settled exactly once (one capture or a full release, one
 * request-log row named by the task id) and the books balance.
 */
describe('video tasks under faults', () => {
  let redisProxy: TcpOutageProxy;
  let harness: GatewayHarness;
  let worker: INestApplicationContext | undefined;
  let demo: VideoDemo;
  let client: OpenAI;
  let postgresAdmin: Client;

  beforeAll(async () => {
    redisProxy = await TcpOutageProxy.start(REDIS_URL);
    harness = await GatewayHarness.start({
      REDIS_URL: redisProxy.url(REDIS_URL),
      VIDEO_TASK_DEADLINES: `nu=${NU_DEADLINE_MS}`,
    });
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness, WORKER_ENV);
    client = videoClient(harness.url, demo.key);
    postgresAdmin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await postgresAdmin.connect();
  });
  afterAll(async () => {
    await worker?.close();
    await postgresAdmin?.end();
    await harness.close();
    await redisProxy?.close();
  });

  const auth = () => ({ authorization: `Bearer ${demo.key}` });
  const create = (prompt: string, model = 'delta-2') =>
    client.post('/videos', {
      body: { model, prompt, seconds: '4', size: '1280x720' },
    }) as Promise<VideoObject>;
  const rowOf = async (taskId: string) =>
    (
      await harness.query<{ status: string; has_handle: boolean; failure_reason: string | null }>(
        'select status, upstream_handle is not null as has_handle, failure_reason from tasks where id = $1',
        [taskId],
      )
    )[0];
  /** Retrieves the video until it has ended; `timeoutMs` leaves room for step retries after an outage. */
  async function untilEnded(taskId: string, timeoutMs = 30_000): Promise<VideoObject> {
    let video = (await client.videos.retrieve(taskId)) as VideoObject;
    await waitFor(async () => {
      video = (await client.videos.retrieve(taskId)) as VideoObject;
      return ENDED.includes(video.status);
    }, timeoutMs);
    return video;
  }

  describe('Postgres refusing connections', () => {
    it('answers every video route 503 in the OpenAI envelope, serves again at once, and finishes earlier tasks once', async () => {
      const earlier = await Promise.all(
        [1, 2, 3].map((index) => create(`Made before the outage ${index} [[sim task_ms=4000]]`)),
      );
      await waitFor(async () => {
        const rows = await Promise.all(earlier.map((video) => rowOf(video.id)));
        return rows.every((row) => row.has_handle);
      }, 30_000);
      const [polled, cancelledInOutage] = earlier;

      const answers = await whileDatabaseRefusesConnections(postgresAdmin, harness.databaseName, async () => {
        const request = (method: string, path: string, body?: unknown, headers = {}) =>
          harness.request(method, path, { body, headers: { ...auth(), ...headers } });
        const body = { model: 'delta-2', prompt: 'In the outage' };
        return {
          create: await request('POST', '/v1/videos', body),
          createOnce: await request('POST', '/v1/videos', body, { 'idempotency-key': 'outage-once' }),
          retrieve: await request('GET', `/v1/videos/${polled.id}`),
          list: await request('GET', '/v1/videos?limit=5'),
          listAfter: await request('GET', `/v1/videos?after=${polled.id}`),
          remove: await request('DELETE', `/v1/videos/${cancelledInOutage.id}`),
          content: await request('GET', `/v1/videos/${polled.id}/content`),
          remix: await request('POST', `/v1/videos/${polled.id}/remix`, { prompt: 'Again' }),
          unifiedCreate: await request('POST', '/v1/video/create', body),
          unifiedQuery: await request('GET', `/v1/video/query?id=${polled.id}`),
        } satisfies Record<string, HttpAnswer>;
      });

      const statuses = Object.fromEntries(
        Object.entries(answers).map(([route, answer]) => [route, answer.status]),
      );
      expect(statuses).toEqual(Object.fromEntries(Object.keys(answers).map((route) => [route, 503])));
      for (const answer of Object.values(answers)) {
        expect(answer.body).toEqual({
          error: expect.objectContaining({ message: expect.any(String), type: 'server_error' }),
        });
      }
      // The first requests once connections are allowed again are served.
      const retrieved = await harness.request<VideoObject>('GET', `/v1/videos/${polled.id}`, {
        headers: auth(),
      });
      expect(retrieved.status).toBe(200);
      const listed = await harness.request<{ data: VideoObject[] }>('GET', '/v1/videos?limit=100', {
        headers: auth(),
      });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((video) => video.id)).toEqual(
        expect.arrayContaining(earlier.map((video) => video.id)),
      );
      const after = await create('Made after the outage');

      // The tasks the outage interrupted complete (the refused delete cancelled nothing), each captured once.
      for (const video of [...earlier, after]) {
        expect((await untilEnded(video.id, 90_000)).status).toBe('completed');
        await expectSettledOnce(harness, video.id, { capture: FOUR_SECONDS_720P, endReason: 'completed' });
      }
      // Nothing held for the creates the outage refused: every hold of the account is a task's.
      expect(
        await harness.query(
          'select request_id from holds where account_id = $1 and request_id not in (select id from tasks)',
          [demo.accountId],
        ),
      ).toEqual([]);
      await harness.settledBooks(demo.accountId);
    }, 150_000);
  });

  describe("the gateway's Redis unreachable at create", () => {
    it("answers with the task, and worker-video's stranded-task sweep runs it to completion, settled once", async () => {
      await redisProxy.cut();
      let taskId: string;
      try {
        const created = await harness.request<VideoObject>('POST', '/v1/videos', {
          body: { model: 'delta-2', prompt: 'Enqueued by the sweep', seconds: '4', size: '1280x720' },
          headers: auth(),
        });
        expect(created.status).toBe(200);
        expect(created.body).toMatchObject({ object: 'video', status: 'queued' });
        taskId = created.body.id;
        expect((await holdOf(harness, taskId))?.status).toBe('open');

        // The gateway still cannot reach Redis: only the sweep can have given the task its step job.
        expect((await untilEnded(taskId)).status).toBe('completed');
        await expectSettledOnce(harness, taskId, { capture: FOUR_SECONDS_720P, endReason: 'completed' });
        expect(await simulatorCreatesByKey(harness, taskId)).toMatchObject({ requests: 1, created: 1 });
      } finally {
        await redisProxy.restore();
      }

      // Redis is back: the job the gateway kept for the task arrives late, and finds it finished.
      const next = await create('Enqueued by the gateway again');
      expect((await untilEnded(next.id)).status).toBe('completed');
      await expectSettledOnce(harness, taskId, { capture: FOUR_SECONDS_720P, endReason: 'completed' });
      expect(await simulatorCreatesByKey(harness, taskId)).toMatchObject({ requests: 1, created: 1 });
    }, 60_000);
  });

  describe('upstream faults', () => {
    /**
     * A model of its own (an open `xi-*` family, priced like the others) on a channel of its own whose
     * base URL scripts every call to fail: worker-video has never read that channel, so the task's first
     * create is refused for sure.
     */
    async function refusingChannel(model: string, script: string): Promise<string> {
      const perVideoSecond = Object.fromEntries(
        Object.entries(VIDEO_PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
      );
      await harness.adminOk('PUT', '/admin/prices', {
        prices: [{ model, perCall: VIDEO_PER_CALL.toString(), perVideoSecond }],
      });
      return harness.createChannel({
        type: 'compat',
        name: `refusing-${model}`,
        baseUrl: `${harness.simulatorUrl}/@${script}`,
        secret: 'sim-compat-key',
        models: [{ model }],
      });
    }

    it.each([
      ['xi-rate-limit', 'error=rate_limit'],
      ['xi-overload', 'error=overload'],
      ['xi-timeout', 'error=timeout;hang=200'],
    ])(
      '%s: completes a video whose creates the upstream refused until it recovered: one upstream video, one capture',
      async (model, script) => {
        const channelId = await refusingChannel(model, script);
        const createsBefore = await simulatorRouteCount(harness, 'compat:videoCreate');
        const created = await create(`Created once the upstream recovers from ${script}`, model);
        await waitFor(
          async () => (await simulatorRouteCount(harness, 'compat:videoCreate')) > createsBefore,
          30_000,
        );
        // Refused: the upstream made nothing, and the task waits to be sent again.
        expect(await simulatorCreatesByKey(harness, created.id)).toBeUndefined();
        expect((await rowOf(created.id)).status).toBe('processing');

        await harness.adminOk('PATCH', `/admin/channels/${channelId}`, { baseUrl: harness.simulatorUrl });
        const ended = await untilEnded(created.id, 60_000);
        expect(ended).toMatchObject({ status: 'completed', error: null });
        expect(await simulatorCreatesByKey(harness, created.id)).toMatchObject({ requests: 1, created: 1 });
        expect(await simulatorRouteCount(harness, 'compat:videoCreate')).toBeGreaterThanOrEqual(
          createsBefore + 2,
        );
        await expectSettledOnce(harness, created.id, { capture: FOUR_SECONDS_720P, endReason: 'completed' });
      },
      90_000,
    );

    it('fails a video whose create the upstream refuses as a bad request, releasing its hold in full', async () => {
      const created = await create('Refused as asked [[sim error=bad_request]]');
      const ended = await untilEnded(created.id);
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 'invalid_request', message: expect.any(String) },
      });
      expect(await simulatorCreatesByKey(harness, created.id)).toBeUndefined();
      await expectSettledOnce(harness, created.id, { capture: 0n, endReason: 'upstream_error' });
    });

    it('fails a video the upstream fails after accepting it, with {code, message}, releasing its hold', async () => {
      const created = await create('Accepted, then lost [[sim error=rate_limit; error_after=2]]');
      const ended = await untilEnded(created.id);
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 'upstream_error', message: expect.stringContaining('nothing was charged') },
      });
      expect(await simulatorCreatesByKey(harness, created.id)).toMatchObject({ created: 1 });
      await expectSettledOnce(harness, created.id, { capture: 0n, endReason: 'upstream_error' });
    });

    it('answers a create the upstream will refuse for its content with the queued task; the task fails content_policy_violation, nothing charged', async () => {
      // The upstream is asked only by worker-video, after the create was answered: the refusal can only
      // show on the task (retrieve, query), never as the create's own status.
      const created = await create('Something forbidden [[sim block=prompt]]', 'epsilon_3_1');
      expect(created.status).toBe('queued');
      const ended = await untilEnded(created.id);
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 'content_policy_violation', message: expect.any(String) },
      });
      await expectSettledOnce(harness, created.id, { capture: 0n, endReason: 'upstream_error' });
    });

    it('keeps a video the upstream describes with an unknown word processing until its deadline, then fails and releases it', async () => {
      const created = await create('Never a word it knows [[sim words=++paused]]', 'nu-1');
      await waitFor(async () => (await rowOf(created.id)).has_handle, 30_000);
      // The simulator now answers `paused` to every retrieve; the worker keeps asking.
      const asked = await simulatorRouteCount(harness, 'compat:videoRetrieve');
      await waitFor(
        async () => (await simulatorRouteCount(harness, 'compat:videoRetrieve')) >= asked + 3,
        30_000,
      );
      expect((await client.videos.retrieve(created.id)).status).toBe('processing');

      const ended = await untilEnded(created.id);
      expect(ended).toMatchObject({
        status: 'failed',
        error: { code: 'deadline_exceeded', message: expect.stringContaining('deadline') },
      });
      expect((await rowOf(created.id)).failure_reason).toBe('deadline exceeded');
      await expectSettledOnce(harness, created.id, { capture: 0n, endReason: 'task_failed' });
    });
  });

  it('completes a video whose worker was stopped mid-poll and started again: one upstream create, one capture', async () => {
    const created = await create('Polled across a restart [[sim polls=40]]');
    await waitFor(async () => (await rowOf(created.id)).has_handle, 30_000);
    const asked = await simulatorRouteCount(harness, 'compat:videoRetrieve');
    await waitFor(async () => (await simulatorRouteCount(harness, 'compat:videoRetrieve')) > asked, 30_000);
    await worker?.close();
    worker = undefined;
    expect((await rowOf(created.id)).status).toBe('processing');

    worker = await startVideoWorker(harness, WORKER_ENV);
    expect((await untilEnded(created.id)).status).toBe('completed');
    expect(await simulatorCreatesByKey(harness, created.id)).toMatchObject({ requests: 1, created: 1 });
    await expectSettledOnce(harness, created.id, { capture: FOUR_SECONDS_720P, endReason: 'completed' });
  }, 60_000);

  it('fails a video the upstream never finishes at its deadline, with the reason, releasing its hold in full', async () => {
    const created = await create('Rendering forever [[sim task_ms=600000]]', 'nu-1');
    expect((await holdOf(harness, created.id))?.amount).toBe(FOUR_SECONDS_720P);
    const ended = await untilEnded(created.id);
    expect(ended).toMatchObject({
      status: 'failed',
      error: { code: 'deadline_exceeded', message: expect.stringContaining('deadline') },
    });
    expect(ended).not.toHaveProperty('video_url');
    await expectSettledOnce(harness, created.id, { capture: 0n, endReason: 'task_failed' });
  });

  it('leaves the books balanced: nothing held, no hold settled twice', async () => {
    await harness.settledBooks(demo.accountId);
    expect(
      await harness.query(
        "select request_id from ledger_entries where account_id = $1 and kind = 'capture' group by request_id having count(*) > 1",
        [demo.accountId],
      ),
    ).toEqual([]);
  });
});
