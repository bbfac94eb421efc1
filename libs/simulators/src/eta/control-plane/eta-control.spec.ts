import { RunningSimulator, startSimulator } from '../../server';
import { postSignedBetaCall } from '../../testing/beta-request-signer.util';
import { parseJson, postJson } from '../../testing/simulator-client.util';

const SCOPE = { region: 'cn-beijing', service: 'eta' };
const DATA_PLANE = { authorization: 'Bearer sim-eta-key' };
const PNG_URL = 'https://cdn.test/kite.png';

interface CallOptions {
  secretKey?: string;
  scope?: { region: string; service: string };
  now?: Date;
  /** Sent after signing, to tamper with the body. */
  sentBody?: string;
  version?: string;
}

describe('eta asset control plane (upstreams.md §6.5) and 2.0 tasks citing assets', () => {
  let simulator: RunningSimulator;

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  const call = async (action: string, body: unknown, options: CallOptions = {}) => {
    const answer = await postSignedBetaCall(
      simulator.url,
      {
        accessKey: 'sim-eta-ak',
        secretKey: options.secretKey ?? 'sim-eta-sk',
        path: '/eta-control/',
        rawQuery: `Action=${action}&Version=${options.version ?? '2024-01-01'}`,
        body: JSON.stringify(body),
        now: options.now,
        scope: options.scope ?? SCOPE,
      },
      options,
    );
    return { status: answer.status, body: parseJson(answer.text) };
  };
  const resultOf = async (action: string, body: unknown) => {
    const answer = await call(action, body);
    expect(answer.status).toBe(200);
    expect(answer.body['ResponseMetadata']).toMatchObject({
      Action: action,
      Version: '2024-01-01',
      Service: 'eta',
      Region: 'cn-beijing',
    });
    return answer.body['Result'] as Record<string, unknown>;
  };
  const errorOf = (answer: { body: Record<string, unknown> }) =>
    (answer.body['ResponseMetadata'] as { Error?: { Code: string; Message: string } }).Error;
  const newGroup = async () =>
    String(
      (await resultOf('CreateAssetGroup', { Name: 'kites', GroupType: 'AIGC', ProjectName: 'default' }))[
        'Id'
      ],
    );
  const newAsset = async (groupId: string, name: string, type = 'Image', url = PNG_URL) =>
    String(
      (
        await resultOf('CreateAsset', {
          GroupId: groupId,
          URL: url,
          Name: name,
          AssetType: type,
          ProjectName: 'default',
        })
      )['Id'],
    );
  const statusOf = async (id: string) =>
    (await resultOf('GetAsset', { Id: id, ProjectName: 'default' }))['Status'];
  const create2 = (content: unknown[]) =>
    postJson(
      `${simulator.url}/api/v3/contents/generations/tasks`,
      { model: 'eta-theta-2-0-260128', content, duration: 5 },
      DATA_PLANE,
    );

  it('creates a group and an asset that processes for the scripted looks, then is Active', async () => {
    const groupId = await newGroup();
    expect(groupId).toMatch(/^group-\d{14}-[a-z0-9]{5}$/);
    const assetId = await newAsset(groupId, 'kite [[sim polls=2]]');
    expect(assetId).toMatch(/^asset-\d{14}-[a-z0-9]{5}$/);
    expect(await statusOf(assetId)).toBe('Processing');
    expect(await statusOf(assetId)).toBe('Processing');
    const asset = await resultOf('GetAsset', { Id: assetId });
    expect(asset).toMatchObject({
      Id: assetId,
      GroupId: groupId,
      AssetType: 'Image',
      URL: PNG_URL,
      Status: 'Active',
    });
    const listed = await resultOf('ListAssets', {
      Filter: { GroupIds: [groupId], GroupType: 'AIGC' },
      PageNumber: 1,
      PageSize: 10,
    });
    expect(listed).toMatchObject({ TotalCount: 1, Items: [{ Id: assetId, Status: 'Active' }] });
  });

  it('fails an asset after the scripted looks, with its Error', async () => {
    const assetId = await newAsset(
      await newGroup(),
      'x [[sim error=bad_request;error_after=1;code=Image.TooSmall]]',
    );
    expect(await statusOf(assetId)).toBe('Processing');
    const asset = await resultOf('GetAsset', { Id: assetId });
    expect(asset).toMatchObject({ Status: 'Failed', Error: { Code: 'Image.TooSmall' } });
  });

  it('refuses a wrong secret, a tampered body, a stale date and another scope with 401, creating nothing', async () => {
    const groups = async () => (await resultOf('ListAssetGroups', { PageSize: 100 }))['TotalCount'];
    const before = await groups();
    const body = { Name: 'kites', GroupType: 'AIGC' };
    const refusals = [
      await call('CreateAssetGroup', body, { secretKey: 'not-the-secret' }),
      await call('CreateAssetGroup', body, { sentBody: JSON.stringify({ ...body, Name: 'other' }) }),
      await call('CreateAssetGroup', body, { now: new Date(Date.now() - 20 * 60_000) }),
      await call('CreateAssetGroup', body, { scope: { region: 'cn-north-1', service: 'cv' } }),
    ];
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401);
      expect(errorOf(refusal)?.Code).toBe('SignatureDoesNotMatch');
      expect(refusal.body['Result']).toBeUndefined();
    }
    expect(await groups()).toBe(before);
    expect(await call('CreateAssetGroup', body)).toMatchObject({ status: 200 });
    expect(await groups()).toBe(Number(before) + 1);
  });

  it('answers unknown ids 404 and bad parameters 400 in the envelope', async () => {
    const missing = await call('GetAsset', { Id: 'asset-20260101000000-zzzzz' });
    expect(missing.status).toBe(404);
    expect(errorOf(missing)?.Code).toBe('NotFound.Asset');
    const badType = await call('CreateAsset', {
      GroupId: await newGroup(),
      URL: PNG_URL,
      Name: 'x',
      AssetType: 'Model',
    });
    expect(badType.status).toBe(400);
    expect(errorOf(badType)?.Code).toBe('InvalidParameter');
    const badVersion = await call('GetAsset', { Id: 'x' }, { version: '2022-08-31' });
    expect(errorOf(badVersion)?.Code).toBe('InvalidActionOrVersion');
  });

  it('lets a 2.0 task cite an Active asset of the right type only', async () => {
    const groupId = await newGroup();
    const image = await newAsset(groupId, 'image');
    const audio = await newAsset(groupId, 'audio', 'Audio', 'https://cdn.test/a.mp3');
    const text = { type: 'text', text: 'a kite' };
    const cite = (id: string, type = 'image_url') => ({
      type,
      [type]: { url: `asset://${id}` },
      role: type === 'image_url' ? 'reference_image' : 'reference_audio',
    });

    const processing = await create2([text, cite(image)]);
    expect(processing.status).toBe(400);
    expect(processing.text).toContain(`the asset ${image} is Processing, not Active`);

    expect(await statusOf(image)).toBe('Active');
    expect(await statusOf(audio)).toBe('Active');
    const accepted = await create2([text, cite(image), cite(audio, 'audio_url')]);
    expect(accepted.status).toBe(200);
    const task = await fetch(
      `${simulator.url}/api/v3/contents/generations/tasks/${String(parseJson(accepted.text)['id'])}`,
      { headers: DATA_PLANE },
    );
    expect(await task.json()).toMatchObject({
      model: 'eta-theta-2-0-260128',
      status: 'succeeded',
      duration: 5,
      usage: { completion_tokens: expect.any(Number) },
    });

    const wrongType = await create2([text, cite(audio)]);
    expect(wrongType.text).toContain('is of type Audio; a image_url item needs Image');
    const unknown = await create2([text, cite('asset-20260101000000-zzzzz')]);
    expect(unknown.text).toContain('the asset asset-20260101000000-zzzzz does not exist');
  });

  it('applies the 2.0 content limits', async () => {
    const image = { type: 'image_url', image_url: { url: PNG_URL }, role: 'reference_image' };
    const tooMany = await create2([{ type: 'text', text: 'x' }, ...Array.from({ length: 10 }, () => image)]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain('at most 9 images');
    const lonelyAudio = await create2([
      { type: 'text', text: 'x' },
      { type: 'audio_url', audio_url: { url: 'https://cdn.test/a.mp3' } },
    ]);
    expect(lonelyAudio.text).toContain('audio needs at least one image or video');
    const mixed = await create2([
      { type: 'image_url', image_url: { url: PNG_URL }, role: 'first_frame' },
      { type: 'video_url', video_url: { url: 'https://cdn.test/v.mp4' }, role: 'reference_video' },
    ]);
    expect(mixed.text).toContain('first/last-frame mode cannot be combined with reference mode');
  });
});
