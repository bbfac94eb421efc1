import type { INestApplicationContext } from '@nestjs/common';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import {
  seedThetaChannel,
  simulatorRequests,
  startAssetWorker,
  ThetaClient,
  type ThetaAsset,
} from './theta-demo';
import { newVideoAccount } from './video-demo';

interface Page<T> {
  Items: T[];
  TotalCount: number;
  PageNumber: number;
  PageSize: number;
}

/**
 * The asset library a client manages (upstreams.md §6.5 through `/v1/theta/asset/*`): listings,
 * updates and deletions of what it uploaded; another account's ids answer 404; an asset URL at a
 * private address is refused before the upstream is asked; the control-plane simulator verifies every
 * signature the gateway sends, and refuses a channel configured with the wrong secret.
 */
describe('theta asset library (ownership, SSRF, signing)', () => {
  let harness: GatewayHarness;
  let trusting: GatewayInstance;
  let assetWorker: INestApplicationContext;
  let mine: ThetaClient;
  let theirs: ThetaClient;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    trusting = await harness.startSimulatorTrustingInstance();
    await seedThetaChannel(harness);
    mine = new ThetaClient(harness, trusting.url, (await newVideoAccount(harness)).key);
    theirs = new ThetaClient(harness, trusting.url, (await newVideoAccount(harness)).key);
    assetWorker = await startAssetWorker(harness);
  });
  afterAll(async () => {
    await assetWorker?.close();
    await harness.close();
  });

  const assetUrl = () => `${harness.simulatorUrl}/files/kite.png`;
  const controlCalls = async (action: string) =>
    (await simulatorRequests(harness, '/eta-control/')).filter((entry) => entry.query['Action'] === action);

  it('lists, renames and deletes what the account uploaded, and only that', async () => {
    const groupId = await mine.createGroup('kites');
    const first = await mine.createAsset(groupId, assetUrl(), 'red kite');
    const second = await mine.createAsset(groupId, assetUrl(), 'theme', 'Audio');
    await theirs.createAsset(await theirs.createGroup('theirs'), assetUrl(), 'their kite');

    const groups = await mine.action<Page<{ Id: string; Name: string; GroupType: string }>>(
      'ListAssetGroups',
      {},
    );
    expect(groups.body).toMatchObject({
      TotalCount: 1,
      Items: [{ Id: groupId, Name: 'kites', GroupType: 'AIGC' }],
    });
    const listed = await mine.action<Page<ThetaAsset>>('ListAssets', {
      Filter: { GroupIds: [groupId] },
      PageSize: 1,
    });
    expect(listed.body).toMatchObject({ TotalCount: 2, PageNumber: 1, PageSize: 1 });
    expect(listed.body.Items.map((item) => item.Id)).toEqual([second]);

    expect((await mine.action('UpdateAsset', { Id: first, Name: 'blue kite' })).status).toBe(200);
    expect(await mine.getAsset(first)).toMatchObject({ Name: 'blue kite' });
    const renamed = await controlCalls('UpdateAsset');
    expect(JSON.parse(renamed[renamed.length - 1].body)).toMatchObject({
      Name: 'blue kite',
      Id: expect.stringMatching(/^asset-/),
    });
    expect((await mine.action('UpdateAssetGroup', { Id: groupId, Description: 'red and blue' })).status).toBe(
      200,
    );
    expect((await mine.action('GetAssetGroup', { Id: groupId })).body).toMatchObject({
      Description: 'red and blue',
    });

    expect((await mine.action('DeleteAsset', { Id: first })).status).toBe(200);
    expect((await mine.action('GetAsset', { Id: first })).status).toBe(404);
    expect((await mine.action('DeleteAssetGroup', { Id: groupId })).status).toBe(200);
    expect((await mine.action('GetAsset', { Id: second })).status).toBe(404);
    expect((await mine.action<Page<unknown>>('ListAssets', {})).body.TotalCount).toBe(0);
  });

  it("answers another account's group and asset ids 404, whatever the action, and changes nothing upstream", async () => {
    const groupId = await theirs.createGroup('private');
    const assetId = await theirs.createAsset(groupId, assetUrl(), 'private kite');
    const updatesBefore = (await controlCalls('UpdateAsset')).length;
    const deletesBefore =
      (await controlCalls('DeleteAsset')).length + (await controlCalls('DeleteAssetGroup')).length;
    const attempts: Array<[string, unknown, string]> = [
      ['GetAsset', { Id: assetId }, 'Id'],
      ['UpdateAsset', { Id: assetId, Name: 'mine now' }, 'Id'],
      ['DeleteAsset', { Id: assetId }, 'Id'],
      ['GetAssetGroup', { Id: groupId }, 'Id'],
      ['UpdateAssetGroup', { Id: groupId, Name: 'mine now' }, 'Id'],
      ['DeleteAssetGroup', { Id: groupId }, 'Id'],
      ['CreateAsset', { GroupId: groupId, URL: assetUrl(), Name: 'intruder', AssetType: 'Image' }, 'GroupId'],
    ];
    for (const [action, body, param] of attempts) {
      const answer = await mine.action<{ error: Record<string, unknown> }>(action, body);
      expect([action, answer.status]).toEqual([action, 404]);
      expect(answer.body.error).toMatchObject({ code: 'not_found', param });
    }
    expect(
      (await mine.action<Page<unknown>>('ListAssets', { Filter: { GroupIds: [groupId] } })).body.TotalCount,
    ).toBe(0);
    expect((await controlCalls('UpdateAsset')).length).toBe(updatesBefore);
    expect((await controlCalls('DeleteAsset')).length + (await controlCalls('DeleteAssetGroup')).length).toBe(
      deletesBefore,
    );
    expect(await theirs.getAsset(assetId)).toMatchObject({ Name: 'private kite' });
  });

  it.each([
    'http://127.0.0.1:1/kite.png',
    'http://10.0.0.7/kite.png',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/kite.png',
  ])('refuses the private asset URL %s before the upstream is asked', async (url) => {
    const groupId = await mine.createGroup('ssrf');
    const before = (await controlCalls('CreateAsset')).length;
    const answer = await mine.action<{ error: Record<string, unknown> }>('CreateAsset', {
      GroupId: groupId,
      URL: url,
      Name: 'probe',
      AssetType: 'Image',
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({
      param: 'URL',
      message: expect.stringContaining('public http(s) URL'),
    });
    expect((await controlCalls('CreateAsset')).length).toBe(before);
  });

  it('signs every control-plane call so that the simulator accepts it', async () => {
    const calls = await simulatorRequests(harness, '/eta-control/');
    expect(calls.length).toBeGreaterThan(10);
    expect(calls.every((entry) => entry.authenticated)).toBe(true);
    expect(new Set(calls.map((entry) => entry.query['Version']))).toEqual(new Set(['2024-01-01']));
  });

  it('is refused by the simulator when the channel holds the wrong secret, and tells the client to retry later', async () => {
    const separate = await GatewayHarness.start();
    try {
      await seedThetaChannel(separate, { controlPlaneKey: 'sim-eta-ak|not-the-secret' });
      const client = new ThetaClient(separate, separate.url, (await newVideoAccount(separate)).key);
      const answer = await client.action<{ error: Record<string, unknown> }>('CreateAssetGroup', {
        Name: 'kites',
      });
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ code: 'upstream_unavailable' });
      const [refused] = await simulatorRequests(separate, '/eta-control/');
      expect(refused).toMatchObject({ authenticated: false, query: { Action: 'CreateAssetGroup' } });
    } finally {
      await separate.close();
    }
  });

  it('refuses channel settings of a bad form naming the expected form, never the secret', async () => {
    const answer = await harness.admin<{ error: { message: string; param: string } }>(
      'POST',
      '/admin/channels',
      {
        type: 'eta',
        name: 'eta-bad-settings',
        baseUrl: harness.simulatorUrl,
        secret: 'sim-eta-key',
        models: [{ model: 'eta-theta-2-0-260128' }],
        settings: {
          controlPlaneUrl: `${harness.simulatorUrl}/eta-control`,
          controlPlaneKey: 'only-a-secret-zq9',
        },
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.message).toContain('settings.controlPlaneKey must be AccessKey|SecretKey');
    expect(answer.text).not.toContain('only-a-secret-zq9');
  });
});
