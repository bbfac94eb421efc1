import type { INestApplicationContext } from '@nestjs/common';
import { Client } from 'pg';
import { TEST_POSTGRES_ADMIN_URL, waitFor, whileDatabaseRefusesConnections } from '@gateway/testing';
import { seedAlphaDemo, startImageServer, startTrustingInstance, type ImageServer } from './alpha-demo';
import {
  BETA_VERSION,
  BetaActionClient,
  GET_RESULT_ACTION,
  SUBMIT_ACTION,
  type BetaEnvelope,
} from './beta-action.client';
import { seedGammaDemo, type GammaEnvelope } from './gamma-demo';
import { GatewayHarness, type GatewayInstance, type HttpAnswer } from './gateway-harness';
import { seedMusicDemo, startMusicWorker, type LambdaEnvelope, type LambdaTask } from './lambda-demo';
import { assetImage, seedThetaChannel, startAssetWorker, ThetaClient } from './theta-demo';
import { newVideoAccount, seedVideoDemo } from './video-demo';

/** The envelope each route family answers errors in (the `/delta/` and `/v1/` routes: OpenAI-style). */
type Family = 'beta' | 'alpha' | 'gamma' | 'lambda' | 'openai';

/** A 503 in each family's envelope: what a client of the family retries, unlike its 500. */
const UNAVAILABLE: Readonly<Record<Family, unknown>> = {
  beta: {
    code: 50500,
    status: 50500,
    message: expect.any(String),
    request_id: expect.any(String),
    time_elapsed: expect.any(String),
    data: null,
  },
  alpha: {
    code: 503,
    reason: 'InternalServiceFailure',
    message: expect.any(String),
    metadata: { trace_id: expect.any(String) },
  },
  gamma: { code: 5001, message: expect.any(String), request_id: expect.any(String) },
  lambda: { code: 'service_unavailable', message: expect.any(String), data: null },
  openai: {
    error: { message: expect.any(String), type: 'server_error', param: null, code: 'service_unavailable' },
  },
};

const BETA_VIDEO_PER_CALL = 1_000n;
const BETA_VIDEO_PER_SECOND = { '720p': '10000', '1080p': '20000' };
const CHARACTER_PRICE = 5_000n;
const IMAGE_REQ_KEY = 'beta_t2i_v40';
const VIDEO_REQ_KEY = 'beta_t2v_v30';
const IMAGE_SIZE = { width: 1024, height: 1024, force_single: true };
const ENDED = ['completed', 'failed', 'cancelled'];

/** The head of an MP4 (an `ftyp` box, brand isom): what file-type reads as video/mp4. */
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from('ftypisom', 'ascii'),
  Buffer.from([0, 0, 2, 0]),
  Buffer.from('isomiso2', 'ascii'),
]);

/** One request a client of a route family makes. */
interface RouteCall {
  family: Family;
  ask: () => Promise<HttpAnswer>;
}

/**
 * Postgres refusing connections under every task route added beside the video routes (the beta
 * Action API, the alpha and gamma official routes, the lambda music routes and their content, the
 * theta 2.0 video and asset routes, character creation): each answers at once a 503 in its family's
 * envelope, never a 500 nor a hang, and serves again as soon as connections are allowed; what was
 * refused held nothing, and every task settles once.
 */
describe('task routes while Postgres refuses connections', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let clips: ImageServer;
  let worker: INestApplicationContext;
  let assetWorker: INestApplicationContext;
  let postgresAdmin: Client;
  let account: { key: string; accountId: string };
  let earlier: {
    imageTask: string;
    betaVideo: string;
    alphaTask: string;
    gammaTask: string;
    musicTask: string;
    clipId: string;
    groupId: string;
    assetId: string;
    thetaTask: string;
  };
  let routes: Record<string, RouteCall>;

  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    harness.request<T>(method, path, {
      body,
      headers: { authorization: `Bearer ${account.key}`, ...headers },
      baseUrl: gateway.url,
    });
  const bt = <T>(action: string, body: unknown) =>
    call<T>('POST', `/bt?Action=${action}&Version=${BETA_VERSION}`, body);
  const statusesOf = async (ids: readonly string[]) =>
    (await harness.query<{ status: string }>('select status from tasks where id = any($1)', [ids])).map(
      (row) => row.status,
    );

  beforeAll(async () => {
    // Keys stay cached through the outage: every 503 below is the route's own, not the key check's.
    harness = await GatewayHarness.start({ KEY_CACHE_TTL_MS: '600000' });
    clips = await startImageServer({ '/clip.mp4': { head: MP4_HEAD, size: 8 * 1024 } });
    await seedVideoDemo(harness);
    await seedAlphaDemo(harness);
    await seedGammaDemo(harness);
    await seedMusicDemo(harness);
    await seedThetaChannel(harness);
    await harness.seedBetaChannel({ models: ['beta-4.0', 'beta-video-3.0'] });
    await harness.adminOk('PUT', '/admin/prices', {
      prices: [
        {
          model: 'beta-video-3.0',
          perCall: BETA_VIDEO_PER_CALL.toString(),
          perVideoSecond: BETA_VIDEO_PER_SECOND,
        },
        { model: 'delta-character', perCall: CHARACTER_PRICE.toString() },
      ],
    });
    account = await newVideoAccount(harness);
    // Started once every channel and price exists; it may fetch from the simulator and the clip server.
    gateway = await startTrustingInstance(harness, [clips.host]);
    // worker-video's composition: the step worker (video tasks of every family, music) and the music poll.
    [worker, assetWorker] = await Promise.all([startMusicWorker(harness), startAssetWorker(harness)]);
    postgresAdmin = new Client({ connectionString: TEST_POSTGRES_ADMIN_URL });
    await postgresAdmin.connect();
    earlier = await tasksOfEveryFamily();
    routes = routesOf();
  }, 120_000);
  afterAll(async () => {
    await Promise.all([worker?.close(), assetWorker?.close()]);
    await postgresAdmin?.end();
    await harness.close();
    await clips?.close();
  });

  /** One finished task of every family (and an Active asset), for the queries to read. */
  async function tasksOfEveryFamily(): Promise<typeof earlier> {
    const beta = new BetaActionClient(gateway.url, account.key);
    const theta = new ThetaClient(harness, gateway.url, account.key);
    const imageTask = await beta.submit({ req_key: IMAGE_REQ_KEY, prompt: 'A lighthouse', ...IMAGE_SIZE });
    const betaVideo = await beta.submit({ req_key: VIDEO_REQ_KEY, prompt: 'A quiet street' });
    const alphaTask = (
      await call<{ task_id: string }>('POST', '/alpha/ent/v2/text2video', {
        model: 'alphaq2-pro',
        prompt: 'A red kite',
      })
    ).body.task_id;
    const gammaTask =
      (
        await call<GammaEnvelope>('POST', '/gamma/v1/videos/text2video', {
          model_name: 'gamma-v2-6',
          prompt: 'A harbour at dawn',
        })
      ).body.data?.task_id ?? '';
    const musicTask = (
      await call<LambdaEnvelope<string>>('POST', '/lambda/submit/music', { prompt: 'calm piano' })
    ).body.data;
    const groupId = await theta.createGroup('kites');
    const assetId = await theta.createAsset(groupId, `${harness.simulatorUrl}/files/kite.png`, 'kite');
    expect((await theta.untilProcessed(assetId)).Status).toBe('Active');
    const thetaTask = (await theta.createVideo(thetaVideoBody(assetId))).body.task_id;

    expect((await beta.waitForResult(IMAGE_REQ_KEY, imageTask)).last.envelope.data).toMatchObject({
      status: 'done',
    });
    const videoTasks = [betaVideo, alphaTask, gammaTask, musicTask, thetaTask];
    await waitFor(
      async () => (await statusesOf(videoTasks)).every((status) => ENDED.includes(status)),
      60_000,
    );
    expect(await statusesOf(videoTasks)).toEqual(videoTasks.map(() => 'completed'));
    const music = await call<LambdaEnvelope<LambdaTask>>('GET', `/lambda/fetch/${musicTask}`);
    return {
      imageTask,
      betaVideo,
      alphaTask,
      gammaTask,
      musicTask,
      clipId: music.body.data.data[0].id,
      groupId,
      assetId,
      thetaTask,
    };
  }

  function thetaVideoBody(assetId: string) {
    return {
      model: 'eta-theta-2-0-260128',
      content: [{ type: 'text', text: 'the kite of the asset over a bay' }, assetImage(assetId)],
      metadata: { duration: 5, ratio: '16:9', resolution: '720p' },
    };
  }

  /** Every task route, asked about the earlier tasks or asked to make new ones. */
  function routesOf(): Record<string, RouteCall> {
    const route = (family: Family, ask: () => Promise<HttpAnswer>): RouteCall => ({ family, ask });
    const asset = (action: string, body: unknown) => call('POST', `/v1/theta/asset/${action}`, body);
    return {
      btSubmitImage: route('beta', () =>
        bt(SUBMIT_ACTION, { req_key: IMAGE_REQ_KEY, prompt: 'A harbour', ...IMAGE_SIZE }),
      ),
      btSubmitVideo: route('beta', () => bt(SUBMIT_ACTION, { req_key: VIDEO_REQ_KEY, prompt: 'A bridge' })),
      btResultImage: route('beta', () =>
        bt(GET_RESULT_ACTION, { req_key: IMAGE_REQ_KEY, task_id: earlier.imageTask, req_json: '{}' }),
      ),
      btResultVideo: route('beta', () =>
        bt(GET_RESULT_ACTION, { req_key: VIDEO_REQ_KEY, task_id: earlier.betaVideo, req_json: '{}' }),
      ),
      alphaSubmit: route('alpha', () =>
        call('POST', '/alpha/ent/v2/text2video', { model: 'alphaq2-pro', prompt: 'A blue kite' }),
      ),
      alphaCreations: route('alpha', () => call('GET', `/alpha/ent/v2/task/${earlier.alphaTask}/creations`)),
      gammaCreate: route('gamma', () =>
        call('POST', '/gamma/v1/videos/text2video', { model_name: 'gamma-v2-6', prompt: 'A mill' }),
      ),
      gammaQuery: route('gamma', () => call('GET', `/gamma/v1/videos/text2video/${earlier.gammaTask}`)),
      lambdaSubmit: route('lambda', () => call('POST', '/lambda/submit/music', { prompt: 'slow violin' })),
      // An Idempotency-Key is looked up before anything is held.
      lambdaSubmitOnce: route('lambda', () =>
        call('POST', '/lambda/submit/music', { prompt: 'soft drums' }, { 'idempotency-key': 'drums-once' }),
      ),
      lambdaFetchOne: route('lambda', () => call('GET', `/lambda/fetch/${earlier.musicTask}`)),
      lambdaFetchMany: route('lambda', () => call('POST', '/lambda/fetch', { ids: [earlier.musicTask] })),
      lambdaContent: route('lambda', () =>
        call('GET', `/lambda/content/${earlier.musicTask}/${earlier.clipId}/audio`),
      ),
      thetaVideoCreate: route('openai', () =>
        call('POST', '/v1/video/generations', thetaVideoBody(earlier.assetId)),
      ),
      thetaVideoQuery: route('openai', () => call('GET', `/v1/video/generations/${earlier.thetaTask}`)),
      thetaGetAsset: route('openai', () => asset('GetAsset', { Id: earlier.assetId })),
      thetaListAssets: route('openai', () => asset('ListAssets', {})),
      thetaGetAssetGroup: route('openai', () => asset('GetAssetGroup', { Id: earlier.groupId })),
      thetaListAssetGroups: route('openai', () => asset('ListAssetGroups', {})),
      thetaCreateAsset: route('openai', () =>
        asset('CreateAsset', {
          GroupId: earlier.groupId,
          URL: `${harness.simulatorUrl}/files/kite.png`,
          Name: 'another kite',
          AssetType: 'Image',
        }),
      ),
      characters: route('openai', () =>
        call('POST', '/delta/v1/characters', {
          name: 'Captain',
          character_url: clips.url('/clip.mp4'),
          character_timestamps: '0,3',
        }),
      ),
    };
  }

  it('answers every task route at once with a 503 in its family envelope', async () => {
    const answers = await whileDatabaseRefusesConnections(postgresAdmin, harness.databaseName, async () => {
      const asked: Record<string, HttpAnswer> = {};
      for (const [name, route] of Object.entries(routes)) asked[name] = await route.ask();
      return asked;
    });

    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => [name, { status: answer.status, body: answer.body }]),
    );
    const expected = Object.fromEntries(
      Object.entries(routes).map(([name, route]) => [name, { status: 503, body: UNAVAILABLE[route.family] }]),
    );
    expect(seen).toEqual(expected);
  }, 60_000);

  it('serves every route again as soon as connections are allowed, and the new tasks complete', async () => {
    const answers: Record<string, HttpAnswer> = {};
    for (const [name, route] of Object.entries(routes)) answers[name] = await route.ask();
    expect(
      Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.status])),
    ).toEqual(Object.fromEntries(Object.keys(routes).map((name) => [name, 200])));
    expect(answers.lambdaContent.headers.get('content-type')).toBe('audio/mpeg');

    const body = <T>(name: string) => answers[name].body as T;
    const imageTask = body<BetaEnvelope>('btSubmitImage').data?.['task_id'] as string;
    const beta = new BetaActionClient(gateway.url, account.key);
    expect((await beta.waitForResult(IMAGE_REQ_KEY, imageTask)).last.envelope.data).toMatchObject({
      status: 'done',
    });
    const videoTasks = [
      body<BetaEnvelope>('btSubmitVideo').data?.['task_id'] as string,
      body<{ task_id: string }>('alphaSubmit').task_id,
      body<GammaEnvelope>('gammaCreate').data?.task_id ?? '',
      body<LambdaEnvelope<string>>('lambdaSubmit').data,
      body<LambdaEnvelope<string>>('lambdaSubmitOnce').data,
      body<{ task_id: string }>('thetaVideoCreate').task_id,
    ];
    await waitFor(
      async () => (await statusesOf(videoTasks)).every((status) => ENDED.includes(status)),
      60_000,
    );
    expect(await statusesOf(videoTasks)).toEqual(videoTasks.map(() => 'completed'));
  }, 120_000);

  it('leaves the books balanced: nothing held for what was refused, nothing captured twice', async () => {
    await harness.settledBooks(account.accountId);
    expect(
      await harness.query(
        "select request_id from ledger_entries where account_id = $1 and kind = 'capture' group by request_id having count(*) > 1",
        [account.accountId],
      ),
    ).toEqual([]);
    // One capture per completed task and one for the character made after the outage.
    const [captures] = await harness.query<{ n: number }>(
      "select count(*)::int as n from ledger_entries where account_id = $1 and kind = 'capture'",
      [account.accountId],
    );
    expect(captures.n).toBe(6 + 7 + 1);
  });
});
