import type { INestApplicationContext } from '@nestjs/common';
import { DEFAULT_ETA_KEY } from '@gateway/simulators';
import { Client } from 'pg';
import { TEST_POSTGRES_ADMIN_URL, waitFor, whileDatabaseRefusesConnections } from '@gateway/testing';
import { seedAlphaDemo } from './alpha-demo';
import { BetaActionClient } from './beta-action.client';
import { seedGammaDemo } from './gamma-demo';
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { moneyOfTask } from './video-fault.checks';
import { holdOf, seedVideoDemo, simulatorCreatesByKey, startVideoWorker } from './video-demo';
import { MatrixClient, seedMatrixDemo, type MatrixDemo, type VideoAnswer } from './video-matrix.demo';

const FRAME_URL = 'https://img.example.test/first.png';

/** One model per video family, a valid `/v1/videos` body for it, and whether its wire can cancel. */
const FAMILIES = {
  theta: { wireCancel: true, body: { model: 'eta-theta-1-0-pro_720p', seconds: '5' } },
  mu: { wireCancel: false, body: { model: 'mu-2.3', image: FRAME_URL, seconds: '6' } },
  omega: { wireCancel: false, body: { model: 'omega2.6-t2v:1280*720', seconds: '5' } },
  beta: { wireCancel: false, body: { model: 'beta-video-3.0', size: '1280x720', seconds: '5' } },
  alpha: { wireCancel: false, body: { model: 'alphaq2-pro', seconds: '6' } },
  gamma: { wireCancel: false, body: { model: 'gamma-2.6', seconds: '10', aspect_ratio: '16:9' } },
  nu: { wireCancel: true, body: { model: 'nu-1', seconds: '8', size: '1280x720' } },
  delta: { wireCancel: true, body: { model: 'delta-2' } },
} as const;
type Family = keyof typeof FAMILIES;
const FAMILY_NAMES = Object.keys(FAMILIES) as Family[];
const WITHOUT_WIRE_CANCEL = FAMILY_NAMES.filter((family) => !FAMILIES[family].wireCancel);

/** The simulator's counters of upstream creates, one route per wire. */
const CREATE_ROUTE =
  /^(mu:submit|omega:submit|eta:videoTasks:create|beta:submitTask|compat:videoCreate|gamma:createAigcVideoTask|alpha:(?!creations).+)$/;

/**
 * Issue 31: `DELETE /v1/videos/{id}` of an unfinished video is free only where the operator pays the
 * upstream nothing: before a worker took its submission, or where the wire's cancel stopped it. Any
 * other is refused with 409 `task_not_cancellable` and completes and is billed. Every video family,
 * against the simulators (their counters say whether the upstream made anything) and the ledger.
 */
describe('cancelling a video: free only before the upstream took it or where its wire stops it', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  /** An instance that submits at create (TASK_SUBMIT_AT_CREATE_MS): its videos are accepted upstream when answered. */
  let submitting: GatewayInstance;
  let demo: MatrixDemo;
  let worker: INestApplicationContext | undefined;
  let marker = 0;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    // The compat relay families first: the matrix prices nu-1 again, as its checks expect.
    await seedVideoDemo(harness);
    await seedAlphaDemo(harness);
    await seedGammaDemo(harness);
    demo = await seedMatrixDemo(harness);
    gateway = await harness.startSimulatorTrustingInstance();
    submitting = await harness.startInstance({
      ssrfAllowHosts: [new URL(harness.simulatorUrl).host],
      taskSubmitAtCreateMs: 10_000,
    });
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  const auth = () => ({ authorization: `Bearer ${demo.key}` });

  async function create(family: Family, directives: string, instance = gateway): Promise<string> {
    const prompt = `A harbour at dusk #${++marker} [[sim ${directives}]]`;
    const created = await harness.request<VideoAnswer>('POST', '/v1/videos', {
      body: { ...FAMILIES[family].body, prompt },
      headers: auth(),
      baseUrl: instance.url,
    });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  const remove = (id: string): Promise<HttpAnswer<VideoAnswer & { deleted?: boolean }>> =>
    harness.request('DELETE', `/v1/videos/${id}`, { headers: auth(), baseUrl: gateway.url });

  async function rowOf(id: string): Promise<{ status: string; accepted: boolean; handle: unknown }> {
    const [row] = await harness.query<{ status: string; accepted: boolean; handle: unknown }>(
      'select status, upstream_handle is not null as accepted, upstream_handle as handle from tasks where id = $1',
      [id],
    );
    return row;
  }

  async function createsUpstream(): Promise<number> {
    const stats = (await (await fetch(`${harness.simulatorUrl}/__sim/stats`)).json()) as {
      byRoute: Record<string, number>;
    };
    return Object.entries(stats.byRoute)
      .filter(([route]) => CREATE_ROUTE.test(route))
      .reduce((total, [, count]) => total + count, 0);
  }

  async function compatCancellations(): Promise<number> {
    const stats = (await (await fetch(`${harness.simulatorUrl}/__sim/stats`)).json()) as {
      videos: { cancelled: number };
    };
    return stats.videos.cancelled;
  }

  /** Settled once, capturing nothing: the hold released, one request-log row at no cost. */
  async function expectReleasedOnce(id: string): Promise<void> {
    await waitFor(async () => (await holdOf(harness, id))?.status === 'settled', 30_000);
    await harness.settled();
    const money = await moneyOfTask(harness, id);
    expect(money).toMatchObject({ hold: 'settled', captures: [] });
    expect(money.logs).toHaveLength(1);
    expect(money.logs[0]).toMatchObject({ cost_micros: '0', end_reason: 'cancelled' });
  }

  /** Settled once, capturing what the upstream made: one capture, one request-log row at that cost. */
  async function expectCapturedOnce(id: string): Promise<void> {
    await waitFor(async () => (await holdOf(harness, id))?.status === 'settled', 30_000);
    await harness.settled();
    const money = await moneyOfTask(harness, id);
    expect(money.hold).toBe('settled');
    expect(money.captures).toHaveLength(1);
    expect(money.captures[0]).toBeGreaterThan(0n);
    expect(money.logs).toHaveLength(1);
    expect(money.logs[0].cost_micros).toBe(money.captures[0].toString());
  }

  function expectNotCancellable(answer: HttpAnswer<unknown>, why: RegExp): void {
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({
      error: {
        message: expect.stringMatching(why),
        type: 'invalid_request_error',
        param: 'video_id',
        code: 'task_not_cancellable',
      },
    });
  }

  const cancelledBeforeSubmission: string[] = [];
  const refused: Array<{ family: Family; id: string }> = [];
  let createsBeforeWorker = 0;

  describe('before any worker runs', () => {
    it.each(FAMILY_NAMES)(
      '%s: a video not yet submitted is cancelled for free and never reaches the upstream',
      async (family) => {
        const creates = await createsUpstream();
        const id = await create(family, 'polls=2');
        const answer = await remove(id);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ id, object: 'video', status: 'cancelled' });
        await expectReleasedOnce(id);
        expect(await createsUpstream()).toBe(creates);
        cancelledBeforeSubmission.push(id);
      },
    );

    it.each(WITHOUT_WIRE_CANCEL)(
      '%s: a video the upstream accepted, on a wire without cancel, is refused with 409 and runs on',
      async (family) => {
        const id = await create(family, 'polls=2', submitting);
        expect(await rowOf(id)).toMatchObject({ status: 'processing', accepted: true });
        expectNotCancellable(await remove(id), /upstream accepted the task and its wire cannot cancel it/);
        expect((await rowOf(id)).status).toBe('processing');
        expect(await holdOf(harness, id)).toMatchObject({ status: 'open' });
        refused.push({ family, id });
      },
    );

    it('theta: a video the upstream accepted but has not started is cancelled on the wire, for free', async () => {
      const id = await create('theta', 'polls=2', submitting);
      expect(await rowOf(id)).toMatchObject({ status: 'processing', accepted: true });
      const answer = await remove(id);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id, status: 'cancelled' });
      await expectReleasedOnce(id);
      // The upstream says cancelled: it made nothing.
      const { handle } = await rowOf(id);
      const upstream = await fetch(
        `${harness.simulatorUrl}/api/v3/contents/generations/tasks/${(handle as { taskId: string }).taskId}`,
        { headers: { authorization: `Bearer ${DEFAULT_ETA_KEY}` } },
      );
      expect(((await upstream.json()) as { status: string }).status).toBe('cancelled');
    });

    it('theta: a video the upstream is already running refuses the wire cancel: 409 naming why, and it runs on', async () => {
      const id = await create('theta', 'polls=2', submitting);
      const { handle } = await rowOf(id);
      // The upstream starts it: its first query answers `queued`, the next ones `running`.
      const taskUrl = `${harness.simulatorUrl}/api/v3/contents/generations/tasks/${(handle as { taskId: string }).taskId}`;
      await fetch(taskUrl, { headers: { authorization: `Bearer ${DEFAULT_ETA_KEY}` } });
      expectNotCancellable(
        await remove(id),
        /upstream accepted the task and did not cancel it \(.*only a queued task can be cancelled/,
      );
      expect((await rowOf(id)).status).toBe('processing');
      refused.push({ family: 'theta', id });
    });

    it.each(['nu', 'delta'] as const)(
      '%s: a video the upstream accepted is cancelled on the wire, for free, and the upstream says so',
      async (family) => {
        const cancellations = await compatCancellations();
        const id = await create(family, 'polls=50', submitting);
        expect(await rowOf(id)).toMatchObject({ status: 'processing', accepted: true });
        const answer = await remove(id);
        expect(answer.status).toBe(200);
        expect(answer.body).toMatchObject({ id, status: 'cancelled' });
        await expectReleasedOnce(id);
        expect(await simulatorCreatesByKey(harness, id)).toMatchObject({ created: 1 });
        expect(await compatCancellations()).toBe(cancellations + 1);
      },
    );

    it('delta: with Postgres down the cancel answers 503 and changes nothing; the same cancel once it is back is made', async () => {
      const cancellations = await compatCancellations();
      const id = await create('delta', 'polls=50', submitting);
      const postgres = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
      await postgres.connect();
      try {
        const during = await whileDatabaseRefusesConnections(postgres, harness.databaseName, () =>
          remove(id),
        );
        expect(during.status).toBe(503);
        expect(during.body).toEqual({
          error: {
            message: expect.any(String),
            type: 'server_error',
            param: null,
            code: 'service_unavailable',
          },
        });
      } finally {
        await postgres.end();
      }
      expect(await rowOf(id)).toMatchObject({ status: 'processing', accepted: true });
      expect(await compatCancellations()).toBe(cancellations);

      const after = await remove(id);
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ id, status: 'cancelled' });
      await expectReleasedOnce(id);
      expect(await compatCancellations()).toBe(cancellations + 1);
    });

    it('nu: a video the upstream already finished is settled as finished, never cancelled on the wire for free', async () => {
      const cancellations = await compatCancellations();
      const id = await create('nu', 'polls=0', submitting);
      expect(await rowOf(id)).toMatchObject({ status: 'processing', accepted: true });
      // The wire's DELETE would also remove the finished video's record: the gateway asks first.
      const answer = await remove(id);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ id, object: 'video.deleted', deleted: true });
      expect((await rowOf(id)).status).toBe('completed');
      await expectCapturedOnce(id);
      expect(await compatCancellations()).toBe(cancellations);
    });

    it('/bt: a beta video made there is free before its submission, refused with 409 once accepted', async () => {
      const body = () => ({
        req_key: 'beta_i2v_first_tail_v30_1080',
        prompt: `A kite between two frames #${++marker} [[sim polls=2]]`,
        image_urls: [FRAME_URL, FRAME_URL],
        frames: 241,
      });
      const creates = await createsUpstream();
      const early = await new BetaActionClient(gateway.url, demo.key).submit(body());
      expect(early).toMatch(/^bt_/);
      const answer = await remove(early);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id: early, status: 'cancelled' });
      await expectReleasedOnce(early);
      expect(await createsUpstream()).toBe(creates);
      cancelledBeforeSubmission.push(early);

      const accepted = await new BetaActionClient(submitting.url, demo.key).submit(body());
      expect(await rowOf(accepted)).toMatchObject({ status: 'processing', accepted: true });
      expectNotCancellable(
        await remove(accepted),
        /upstream accepted the task and its wire cannot cancel it/,
      );
      refused.push({ family: 'beta', id: accepted });
    });

    afterAll(async () => {
      createsBeforeWorker = await createsUpstream();
    });
  });

  describe('once the worker runs', () => {
    let client: MatrixClient;

    beforeAll(async () => {
      worker = await startVideoWorker(harness);
      client = new MatrixClient(harness, gateway, demo.key);
    });

    it('completes every refused video and captures it once', async () => {
      expect(refused.map(({ family }) => family).sort()).toEqual(
        [...WITHOUT_WIRE_CANCEL, 'theta', 'beta'].sort(),
      );
      for (const { id } of refused) {
        expect((await client.untilEnded(id)).video.status).toBe('completed');
        await expectCapturedOnce(id);
      }
    });

    it('never submits a video cancelled before its submission', async () => {
      for (const id of cancelledBeforeSubmission) {
        expect((await rowOf(id)).status).toBe('cancelled');
        await expectReleasedOnce(id);
      }
      expect(await createsUpstream()).toBe(createsBeforeWorker);
    });

    it('refuses a delete while the worker submits (try again), then cancels on the wire once accepted', async () => {
      const id = await create('nu', 'latency=1500; polls=50');
      await waitFor(async () => (await rowOf(id)).status === 'processing', 10_000);
      expect((await rowOf(id)).accepted).toBe(false);
      expectNotCancellable(await remove(id), /being submitted to the upstream right now; try again/);
      await waitFor(async () => (await rowOf(id)).accepted, 10_000);
      const answer = await remove(id);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ id, status: 'cancelled' });
      await expectReleasedOnce(id);
      expect(await simulatorCreatesByKey(harness, id)).toMatchObject({ created: 1 });
    });

    it('refuses a delete while the worker submits on a wire without cancel; the video completes, captured once', async () => {
      const creates = await createsUpstream();
      const id = await create('mu', 'latency=1500; polls=2');
      await waitFor(async () => (await rowOf(id)).status === 'processing', 10_000);
      expectNotCancellable(await remove(id), /being submitted to the upstream right now and its wire cannot/);
      expect((await client.untilEnded(id)).video.status).toBe('completed');
      await expectCapturedOnce(id);
      expect(await createsUpstream()).toBe(creates + 1);
    });

    it('create-then-delete at once, racing the worker: each video is either never submitted and free, or made and captured, once', async () => {
      const creates = await createsUpstream();
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const id = await create('omega', 'polls=2');
          return { id, answer: await remove(id) };
        }),
      );
      let made = 0;
      for (const { id, answer } of outcomes) {
        if (answer.status === 200) {
          expect(answer.body).toMatchObject({ id, status: 'cancelled' });
          await expectReleasedOnce(id);
        } else {
          expectNotCancellable(answer, /submitted to the upstream right now|upstream accepted the task/);
          expect((await client.untilEnded(id)).video.status).toBe('completed');
          await expectCapturedOnce(id);
          made += 1;
        }
      }
      // Every upstream create is a video the gateway captured; a cancelled one was never sent.
      expect(await createsUpstream()).toBe(creates + made);
    });

    it('leaves the books balanced', async () => {
      await harness.settledBooks(demo.accountId);
    });
  });
});
