import type { INestApplicationContext } from '@nestjs/common';
import OpenAI, { toFile } from 'openai';
import { GatewayHarness } from './gateway-harness';
import {
  newVideoAccount,
  seedVideoDemo,
  startVideoWorker,
  untilVideoEnds,
  videoClient,
  type VideoDemo,
  type VideoObject,
} from './video-demo';

/** The smallest thing file-type reads as an MP4: an `ftyp` box (brand isom), then some payload. */
function mp4Clip(payloadBytes = 4096): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypisom', 'ascii'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'ascii'),
  ]);
  const mdat = Buffer.alloc(payloadBytes + 8, 7);
  mdat.writeUInt32BE(payloadBytes + 8, 0);
  mdat.write('mdat', 4, 'ascii');
  return Buffer.concat([ftyp, mdat]);
}

/** The families whose wire extends a finished video (compat's REMIX_FAMILIES). */
const EXTENDING_FAMILIES = ['delta-2', 'delta-2-pro', 'epsilon_3_1-extend'];

async function badRequestOf(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

/**
 * The official SDK's newer video calls against the gateway, worker-video and the simulators: each
 * either works end to end or is a 400 (OpenAI-style) naming the families that can.
 */
describe('the SDK’s newer video calls', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: VideoDemo;
  let client: OpenAI;
  let completedDelta: VideoObject;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedVideoDemo(harness);
    worker = await startVideoWorker(harness);
    client = videoClient(harness.url, demo.key);
    const created = await client.videos.create({ model: 'delta-2' as never, prompt: 'a harbour at noon' });
    completedDelta = await untilVideoEnds(client, created.id);
    expect(completedDelta.status).toBe('completed');
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('videos.extend continues a completed video on the channel that made it, to completion', async () => {
    const extension = (await client.videos.extend({
      prompt: 'the harbour at dusk',
      seconds: '8',
      video: { id: completedDelta.id },
    })) as VideoObject;
    expect(extension).toMatchObject({
      object: 'video',
      model: 'delta-2',
      remixed_from_video_id: completedDelta.id,
    });
    expect(extension.id).not.toBe(completedDelta.id);
    const ended = await untilVideoEnds(client, extension.id);
    expect(ended.status).toBe('completed');
    const journal = (await (await fetch(`${harness.simulatorUrl}/__sim/requests`)).json()) as Array<{
      method: string;
      path: string;
      body: string;
    }>;
    const remixes = journal.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/remix'));
    expect(remixes.some((entry) => entry.body.includes('the harbour at dusk'))).toBe(true);
  });

  it('videos.extend of a family without extension, of an uploaded clip, or of another account’s video is refused', async () => {
    const plain = await untilVideoEnds(
      client,
      (
        await client.videos.create({
          model: 'epsilon_3_1' as never,
          prompt: 'plain epsilon',
          seconds: '8' as never,
        })
      ).id,
    );
    expect(plain.status).toBe('completed');
    const notExtending = await badRequestOf(
      client.videos.extend({ prompt: 'more', seconds: '8', video: { id: plain.id } }),
    );
    expect(notExtending.status).toBe(400);
    for (const family of EXTENDING_FAMILIES) expect(notExtending.message).toContain(family);

    const uploaded = await badRequestOf(
      client.videos.extend({
        prompt: 'more',
        seconds: '8',
        video: await toFile(mp4Clip(), 'clip.mp4', { type: 'video/mp4' }),
      }),
    );
    expect(uploaded.status).toBe(400);
    expect(uploaded.message).toContain('epsilon_3_1-extend');

    const stranger = videoClient(harness.url, (await newVideoAccount(harness)).key);
    const foreign = await badRequestOf(
      stranger.videos.extend({ prompt: 'mine now', seconds: '8', video: { id: completedDelta.id } }),
    );
    expect(foreign.status).toBe(404);
  });

  it('videos.edit is a 400 naming the families that can continue a video instead', async () => {
    const refused = await badRequestOf(
      client.videos.edit({ prompt: 'brighter', video: { id: completedDelta.id } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({ type: 'invalid_request_error', param: 'video' });
    for (const family of EXTENDING_FAMILIES) expect(refused.message).toContain(family);
  });

  it('videos.createCharacter makes a delta character from the uploaded clip; videos.getCharacter reads it back, for its owner only', async () => {
    const created = await client.videos.createCharacter({
      name: 'Captain',
      video: await toFile(mp4Clip(), 'captain.mp4', { type: 'video/mp4' }),
    });
    expect(created).toMatchObject({ id: expect.stringMatching(/^char_/), name: 'Captain' });
    expect(typeof created.created_at).toBe('number');
    const read = await client.videos.getCharacter(created.id as string);
    expect(read).toEqual(created);

    const stranger = videoClient(harness.url, (await newVideoAccount(harness)).key);
    expect((await badRequestOf(stranger.videos.getCharacter(created.id as string))).status).toBe(404);
    expect((await badRequestOf(client.videos.getCharacter('char_unknown'))).status).toBe(404);
  });

  it('videos.createCharacter refuses a clip that is not a video, and one without a clip', async () => {
    const notVideo = await badRequestOf(
      client.videos.createCharacter({
        name: 'Words',
        video: await toFile(Buffer.from('just some words, no video'), 'words.mp4', { type: 'video/mp4' }),
      }),
    );
    expect(notVideo.status).toBe(400);
    expect(notVideo.error).toMatchObject({ param: 'video' });
    const noClip = await harness.request('POST', '/v1/videos/characters', {
      body: { name: 'no clip' },
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(noClip.status).toBe(400);
  });
});
