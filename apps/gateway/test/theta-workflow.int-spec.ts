import type { INestApplicationContext } from '@nestjs/common';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import {
  assetImage,
  seedThetaChannel,
  simulatorRequests,
  startAssetWorker,
  ThetaClient,
  tokenCost,
} from './theta-demo';
import { holdOf, newVideoAccount, settledCapture, startVideoWorker } from './video-demo';

/** 1680×720 frames (21:9, the widest a 720p `adaptive` ratio may follow), 24 a second, 5 s. */
const ADAPTIVE_720P_5S_TOKENS = 141_750;
/** 1280×720 frames (16:9, what the simulator makes of references it cannot measure), 24 a second, 5 s. */
const PRODUCED_720P_5S_TOKENS = 108_000;

/**
 * The theta 2.0 workflow of the interface spec, in its order, by a client written from it: create a
 * group, upload an asset, poll GetAsset until Active, create a video citing `asset://{AssetId}`, query
 * until `video_url`, download it. worker-assets moves the asset on, worker-video the task; the
 * gateway under test may reach the simulator (as an operator allows a private upstream).
 */
describe('theta 2.0 workflow (assets, then a video citing them)', () => {
  let harness: GatewayHarness;
  let trusting: GatewayInstance;
  let videoWorker: INestApplicationContext;
  let assetWorker: INestApplicationContext;
  let client: ThetaClient;
  let account: { key: string; keyId: string; accountId: string };

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    trusting = await harness.startSimulatorTrustingInstance();
    await seedThetaChannel(harness);
    account = await newVideoAccount(harness);
    client = new ThetaClient(harness, trusting.url, account.key);
    [videoWorker, assetWorker] = await Promise.all([startVideoWorker(harness), startAssetWorker(harness)]);
  });
  afterAll(async () => {
    await Promise.all([videoWorker?.close(), assetWorker?.close()]);
    await harness.close();
  });

  it('goes group → asset → Active → video citing it → video_url → the bytes, billed by the tokens made', async () => {
    const groupId = await client.createGroup('kites');
    const assetUrl = `${harness.simulatorUrl}/files/kite.png`;
    const assetId = await client.createAsset(groupId, assetUrl, 'kite [[sim polls=2]]');
    expect(await client.getAsset(assetId)).toMatchObject({
      Id: assetId,
      GroupId: groupId,
      Status: 'Processing',
    });

    const asset = await client.untilProcessed(assetId);
    expect(asset).toMatchObject({ Id: assetId, URL: assetUrl, AssetType: 'Image', Status: 'Active' });

    const created = await client.createVideo({
      model: 'eta-theta-2-0-260128',
      content: [{ type: 'text', text: 'the kite of the asset over a bay at dusk' }, assetImage(assetId)],
      metadata: { duration: 5, ratio: 'adaptive', resolution: '720p' },
    });
    expect(created.status).toBe(200);
    const taskId = created.body.task_id;
    expect(created.body).toMatchObject({ id: taskId, status: 'queued' });
    expect((await holdOf(harness, taskId))?.amount).toBe(tokenCost(ADAPTIVE_720P_5S_TOKENS));

    const video = await client.untilVideoEnds(taskId);
    expect(video.status).toBe('completed');
    expect(video.video_url).toBe(`${trusting.url}/v1/videos/${taskId}/content`);
    const download = await fetch(video.video_url ?? '', { headers: client.auth() });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('video/mp4');
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // The upstream was asked for its own asset id, never the gateway's.
    const [upstreamGroup] = (await simulatorRequests(harness, '/eta-control/'))
      .filter((entry) => entry.query['Action'] === 'CreateAsset')
      .map((entry) => JSON.parse(entry.body) as { GroupId: string });
    expect(upstreamGroup.GroupId).toMatch(/^group-\d{14}-/);
    const [submitted] = (await simulatorRequests(harness, '/api/v3/contents/generations/tasks')).filter(
      (entry) => entry.method === 'POST' && entry.body.includes('the kite of the asset'),
    );
    const body = JSON.parse(submitted.body) as { content: Array<{ image_url?: { url: string } }> };
    const cited = body.content.find((item) => item.image_url)?.image_url?.url ?? '';
    expect(cited).toMatch(/^asset:\/\/asset-\d{14}-[a-z0-9]{5}$/);
    expect(cited).not.toContain(assetId);

    // Captured by the tokens the upstream reported, not the estimate held.
    expect(await settledCapture(harness, taskId)).toBe(tokenCost(PRODUCED_720P_5S_TOKENS));
    const [log] = await harness.query<{ output_tokens: number; media_seconds: number }>(
      'select output_tokens, media_seconds from request_logs where request_id = $1',
      [taskId],
    );
    expect(log).toEqual({ output_tokens: PRODUCED_720P_5S_TOKENS, media_seconds: 5 });
    await harness.settledBooks(account.accountId);
  });

  it('serves a compatible name a channel offers, on that channel, mapped to the upstream id', async () => {
    const created = await client.createVideo({
      model: 'theta-2.0-pro',
      content: [{ type: 'text', text: 'a lighthouse in fog, by the compatible name' }],
      metadata: { duration: 4, ratio: '16:9', resolution: '480p' },
    });
    expect(created.status).toBe(200);
    expect((await client.untilVideoEnds(created.body.task_id)).status).toBe('completed');
    const [submitted] = (await simulatorRequests(harness, '/api/v3/contents/generations/tasks')).filter(
      (entry) => entry.method === 'POST' && entry.body.includes('by the compatible name'),
    );
    expect(JSON.parse(submitted.body)).toMatchObject({
      model: 'eta-theta-2-0-260128',
      resolution: '480p',
      ratio: '16:9',
      duration: 4,
    });
  });
});
