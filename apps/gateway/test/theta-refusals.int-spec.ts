import type { INestApplicationContext } from '@nestjs/common';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { assetImage, seedThetaChannel, startAssetWorker, ThetaClient } from './theta-demo';
import { newVideoAccount } from './video-demo';

const text = { type: 'text', text: 'a kite over the sea' };
const image = (role = 'reference_image') => ({
  type: 'image_url',
  image_url: { url: 'https://cdn.test/i.png' },
  role,
});
const video = (seconds: number) => ({
  type: 'video_url',
  video_url: { url: 'https://cdn.test/v.mp4', duration: seconds },
  role: 'reference_video',
});
const audio = (seconds: number) => ({
  type: 'audio_url',
  audio_url: { url: 'https://cdn.test/a.mp3', duration: seconds },
  role: 'reference_audio',
});
const repeat = <T>(count: number, item: T): T[] => Array.from({ length: count }, () => item);

/**
 * What the theta 2.0 route refuses before anything is held: assets that cannot be cited, an alias no
 * channel offers, and each content limit one past its bound, each a 400 naming the problem in the
 * OpenAI-style dialect, with no hold, no task and no upstream call; and the bad-input rules of the
 * interface on the new routes.
 */
describe('theta 2.0 refusals (nothing held)', () => {
  let harness: GatewayHarness;
  let trusting: GatewayInstance;
  let assetWorker: INestApplicationContext;
  let client: ThetaClient;
  let account: { key: string; keyId: string; accountId: string };
  let other: ThetaClient;
  let groupId: string;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    trusting = await harness.startSimulatorTrustingInstance();
    await seedThetaChannel(harness);
    account = await newVideoAccount(harness);
    client = new ThetaClient(harness, trusting.url, account.key);
    other = new ThetaClient(harness, trusting.url, (await newVideoAccount(harness)).key);
    assetWorker = await startAssetWorker(harness);
    groupId = await client.createGroup('refusals');
  });
  afterAll(async () => {
    await assetWorker?.close();
    await harness.close();
  });

  const assetUrl = () => `${harness.simulatorUrl}/files/kite.png`;
  const refused = async (body: unknown) => {
    const answer = await client.createVideo(body);
    return { status: answer.status, error: (answer.body as { error?: Record<string, unknown> }).error };
  };
  const nothingHeld = async () => {
    const [holds] = await harness.query<{ count: string }>(
      'select count(*) from holds where account_id = $1',
      [account.accountId],
    );
    const [tasks] = await harness.query<{ count: string }>(
      'select count(*) from tasks where account_id = $1',
      [account.accountId],
    );
    expect({ holds: Number(holds.count), tasks: Number(tasks.count) }).toEqual({ holds: 0, tasks: 0 });
    await harness.settledBooks(account.accountId);
  };

  it.each([
    ['an asset still processing', 'kite [[sim polls=100000]]', 'Processing'],
    ['a failed asset', 'x [[sim error=bad_request;error_after=0;code=Image.TooSmall]]', 'Failed'],
  ])('refuses %s, naming it and its status', async (_case, name, status) => {
    const assetId = await client.createAsset(groupId, assetUrl(), name);
    if (status === 'Failed') {
      expect(await client.untilProcessed(assetId)).toMatchObject({
        Status: 'Failed',
        Error: { Code: 'Image.TooSmall' },
      });
    }
    const answer = await refused({ model: 'eta-theta-2-0-260128', content: [text, assetImage(assetId)] });
    expect(answer).toEqual({
      status: 400,
      error: {
        message: `The asset ${assetId} is ${status}; only Active assets can be cited.`,
        type: 'invalid_request_error',
        param: 'content[1].image_url.url',
        code: 'invalid_request',
      },
    });
    await nothingHeld();
  });

  it("refuses another account's asset and a made-up id alike, as assets that do not exist", async () => {
    const othersGroup = await other.createGroup('theirs');
    const theirs = await other.createAsset(othersGroup, assetUrl(), 'theirs');
    expect((await other.untilProcessed(theirs)).Status).toBe('Active');
    for (const assetId of [theirs, 'asset_AAAAAAAAAAAAAAAAAAAAAA', 'not-even-an-id']) {
      const answer = await refused({ model: 'eta-theta-2-0-260128', content: [text, assetImage(assetId)] });
      expect(answer).toMatchObject({
        status: 400,
        error: { message: `The asset ${assetId} does not exist.`, param: 'content[1].image_url.url' },
      });
    }
    await nothingHeld();
  });

  it('refuses a compatible name no channel offers as an unknown model, and a model of another route', async () => {
    expect(await refused({ model: 'theta-2.0-lite', content: [text] })).toMatchObject({
      status: 404,
      error: { code: 'model_not_found', param: 'model' },
    });
    expect(await refused({ model: 'eta-theta-1-0-pro_720p', content: [text] })).toMatchObject({
      status: 404,
      error: {
        code: 'model_not_found',
        param: 'model',
        // No channel offers it here; where one does, the 404 names POST /v1/videos (model-task-routes).
        message: "The model 'eta-theta-1-0-pro_720p' does not exist or is not available.",
      },
    });
    await nothingHeld();
  });

  it.each([
    ['10 images', [text, ...repeat(10, image())], 'content', 'content may hold at most 9 images; it has 10'],
    ['4 videos', [text, ...repeat(4, video(3))], 'content', 'content may hold at most 3 videos; it has 4'],
    [
      '16 s of video',
      [text, video(8), video(8)],
      'content',
      'the videos must last 2 to 15 seconds together; they last 16',
    ],
    [
      '1 s of video',
      [text, video(1)],
      'content',
      'the videos must last 2 to 15 seconds together; they last 1',
    ],
    [
      '4 audios',
      [text, video(5), ...repeat(4, audio(2))],
      'content',
      'content may hold at most 3 audios; it has 4',
    ],
    [
      '16 s of audio',
      [text, video(5), audio(8), audio(8)],
      'content',
      'the audios may last 15 seconds at most together; they last 16',
    ],
    [
      'audio without image or video',
      [text, audio(5)],
      'content',
      'an audio needs at least one image or video beside it',
    ],
    [
      'a first frame beside a reference',
      [image('first_frame'), image('reference_image')],
      'content',
      'first_frame and last_frame cannot be combined with reference_image, reference_video or reference_audio items',
    ],
    [
      'a video of unknown length',
      [text, { type: 'video_url', video_url: { url: 'https://cdn.test/v.mp4' } }],
      'content[1].video_url.duration',
      "content[1].video_url.duration is required: the video's length in seconds (the gateway checks the totals before it holds and never downloads a clip)",
    ],
  ])('refuses %s before any hold', async (_case, content, param, message) => {
    expect(await refused({ model: 'eta-theta-2-0-260128', content })).toEqual({
      status: 400,
      error: { message, type: 'invalid_request_error', param, code: 'invalid_request' },
    });
    await nothingHeld();
  });

  it.each([
    ['invalid Base64', 'data:image/png;base64,@@@not-base64@@@', 'is a data: URI that is not Base64'],
    [
      'Base64 of plain text',
      `data:image/png;base64,${Buffer.from('a kite over the sea').toString('base64')}`,
      'is not a PNG, JPEG or WebP image',
    ],
    [
      'a GIF',
      'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7',
      'is not a PNG, JPEG or WebP image',
    ],
    [
      '14 MiB of junk',
      `data:image/png;base64,${Buffer.alloc(14 * 1024 * 1024, 0x6b).toString('base64')}`,
      'is not a PNG, JPEG or WebP image',
    ],
  ])('refuses a data: image of %s before any hold, naming the item', async (_case, url, problem) => {
    const content = [text, { type: 'image_url', image_url: { url }, role: 'first_frame' }];
    expect(await refused({ model: 'eta-theta-2-0-260128', content })).toEqual({
      status: 400,
      error: {
        message: `content[1].image_url.url ${problem}.`,
        type: 'invalid_request_error',
        param: 'content[1].image_url.url',
        code: 'invalid_request',
      },
    });
    await nothingHeld();
  });

  it.each([
    ['eta-theta-2-0-260128', { duration: 16 }, 'metadata.duration'],
    ['eta-theta-2-0-260128', { duration: 3 }, 'metadata.duration'],
    ['eta-theta-2-0-260128', { ratio: '2:1' }, 'metadata.ratio'],
    ['eta-theta-2-0-260128', { resolution: '4k' }, 'metadata.resolution'],
    ['eta-theta-2-0-fast-260128', { resolution: '1080p' }, 'metadata.resolution'],
  ])('refuses %s with metadata %j naming %s', async (model, metadata, param) => {
    expect(await refused({ model, content: [text], metadata })).toMatchObject({
      status: 400,
      error: { param },
    });
    await nothingHeld();
  });

  it('answers bad input on the new routes in the OpenAI-style dialect', async () => {
    const raw = (path: string, rawBody: string) =>
      harness.request<{ error: Record<string, unknown> }>('POST', path, {
        rawBody,
        headers: { ...client.auth(), 'content-type': 'application/json' },
        baseUrl: trusting.url,
      });
    for (const path of ['/v1/video/generations', '/v1/theta/asset/CreateAsset']) {
      const broken = await raw(path, '{"model":');
      expect(broken.status).toBe(400);
      expect(broken.body.error).toMatchObject({ type: 'invalid_request_error' });
      expect((await raw(path, '[]')).status).toBe(400);
    }
    expect((await refused({ content: [text] })).error).toMatchObject({ param: 'model' });
    expect((await refused({ model: 'eta-theta-2-0-260128', content: 'a kite' })).error).toMatchObject({
      param: 'content',
    });
    expect((await refused({ model: 'eta-theta-2-0-260128', content: [] })).error).toMatchObject({
      param: 'content',
    });
    expect(
      (await refused({ model: 'eta-theta-2-0-260128', content: [text], metadata: 'x' })).error,
    ).toMatchObject({
      param: 'metadata',
    });
    const unknownAction = await client.action('DeleteEverything', {});
    expect(unknownAction.status).toBe(404);
    const missingName = await client.action('CreateAssetGroup', { Description: 'x' });
    expect(missingName).toMatchObject({ status: 400, body: { error: { param: 'Name' } } });
    const badType = await client.action('CreateAsset', {
      GroupId: groupId,
      URL: assetUrl(),
      Name: 'x',
      AssetType: 'Model',
    });
    expect(badType).toMatchObject({ status: 400, body: { error: { param: 'AssetType' } } });
    const unauthenticated = await harness.request('POST', '/v1/theta/asset/GetAsset', {
      body: { Id: 'x' },
      baseUrl: trusting.url,
    });
    expect(unauthenticated.status).toBe(401);
    const unknownTask = await harness.request('GET', '/v1/video/generations/video_AAAAAAAAAAAAAAAAAAAAAA', {
      headers: client.auth(),
      baseUrl: trusting.url,
    });
    expect(unknownTask.status).toBe(404);
    await nothingHeld();
  });
});
