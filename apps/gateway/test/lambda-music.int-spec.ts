import type { INestApplicationContext } from '@nestjs/common';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import {
  lambdaCalls,
  lambdaClient,
  MUSIC_PER_CALL,
  seedMusicDemo,
  startMusicWorker,
  submitted,
  untilMusicEnds,
  upstreamIdOf,
  type LambdaClient,
  type MusicDemo,
} from './lambda-demo';
import { holdOf, newVideoAccount, settledCapture } from './video-demo';

/**
 * The lambda music family end to end, as a client written from upstreams.md §9 uses it: gateway,
 * worker-video (step jobs submit, the poll cycle fetches in batches) and the simulator over HTTP.
 */
describe('lambda music tasks', () => {
  let harness: GatewayHarness;
  let worker: INestApplicationContext;
  let demo: MusicDemo;
  let client: LambdaClient;
  let trusting: GatewayInstance;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await seedMusicDemo(harness);
    worker = await startMusicWorker(harness);
    client = lambdaClient(harness, demo.key);
    trusting = await harness.startSimulatorTrustingInstance();
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  it('submits music, which streams then completes with its clips at gateway URLs, charged its perCall', async () => {
    const id = await submitted(client, 'MUSIC', {
      prompt: 'neon rain on the highway [[sim polls=3]]',
      title: 'Night Drive',
      tags: 'synthwave',
      mv: 'lambda-v4',
    });
    expect(id).toMatch(/^music_[A-Za-z0-9_-]{22}$/);
    expect(await holdOf(harness, id)).toEqual({ amount: MUSIC_PER_CALL['lambda-v4'], status: 'open' });

    const done = await untilMusicEnds(client, id);
    expect(done).toMatchObject({
      task_id: id,
      action: 'MUSIC',
      status: 'SUCCESS',
      fail_reason: '',
      progress: '100%',
    });
    expect(done.data).toHaveLength(2);
    for (const clip of done.data) {
      expect(clip).toMatchObject({ status: 'complete', title: 'Night Drive', model_name: 'lambda-v4' });
      expect(clip.audio_url).toBe(`${harness.url}/lambda/content/${id}/${clip.id}/audio`);
      expect(clip.image_large_url).toBe(`${harness.url}/lambda/content/${id}/${clip.id}/image_large`);
    }
    // The default policy fetches no private address (the simulator is one): a 502, nothing fetched.
    const refused = await client.download(done.data[0].audio_url);
    expect(refused.status).toBe(502);
    expect(await refused.json()).toMatchObject({ code: 'bad_gateway', data: null });
    // An operator who allows the upstream's host (SSRF_ALLOW_HOSTS) gets the bytes through the gateway.
    const viaTrusting = (url: string) => url.replace(harness.url, trusting.url);
    const audio = await client.download(viaTrusting(done.data[0].audio_url));
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await audio.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xfb]));
    const part = await client.download(viaTrusting(done.data[1].audio_url), 'bytes=0-99');
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);

    expect(await settledCapture(harness, id)).toBe(MUSIC_PER_CALL['lambda-v4']);
    const [log] = await harness.query<{ media_seconds: number; model: string }>(
      'select media_seconds, model from request_logs where request_id = $1',
      [id],
    );
    // The simulator's clips last 180.5 s and 120.25 s: 300.75 s, logged rounded up.
    expect(log).toEqual({ media_seconds: 301, model: 'lambda-v4' });
  });

  it('submits lyrics (priced by their own row), answered as one object with the text', async () => {
    const id = await submitted(client, 'lyrics', { prompt: 'rain on a tin roof', title: 'Tin Roof' });
    const done = await untilMusicEnds<{ id: string; status: string; title: string; text: string }>(
      client,
      id,
    );
    expect(done).toMatchObject({ action: 'LYRICS', status: 'SUCCESS' });
    expect(done.data).toEqual({
      id: expect.any(String),
      status: 'complete',
      title: 'Tin Roof',
      text: expect.stringContaining('rain on a tin roof'),
    });
    expect(await settledCapture(harness, id)).toBe(MUSIC_PER_CALL['lambda-v3-0:lyrics']);
  });

  it('fetches a batch of the caller’s tasks in the order asked, leaving out foreign and unknown ids', async () => {
    const mine = [
      await submitted(client, 'music', { description_prompt: 'calm piano' }),
      await submitted(client, 'lyrics', { prompt: 'a lighthouse' }),
    ];
    const other = await newVideoAccount(harness);
    const theirs = await submitted(lambdaClient(harness, other.key), 'music', { prompt: 'not yours' });
    for (const id of mine) await untilMusicEnds(client, id);

    const answer = await client.fetchMany([mine[1], theirs, 'music_AAAAAAAAAAAAAAAAAAAAAA', 'x', mine[0]]);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ code: 'success', message: '' });
    expect(answer.body.data.map((task) => [task.task_id, task.status])).toEqual([
      [mine[1], 'SUCCESS'],
      [mine[0], 'SUCCESS'],
    ]);
    expect(answer.body.data[1].data).toHaveLength(2);

    const foreign = await client.fetchOne(theirs);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: 'not_found', message: expect.stringContaining(theirs), data: null });
    expect((await client.fetchOne('music_AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await client.fetchOne('../../admin')).status).toBe(404);
  });

  it('fails a task with a fail_reason, whatever its status says, and releases its hold', async () => {
    const refused = await submitted(client, 'music', {
      prompt: 'something forbidden [[sim error=content_policy,error_after=1]]',
    });
    const odd = await submitted(client, 'music', {
      prompt:
        'rejected yet SUCCESS [[sim error=bad_request,error_after=0,code=clip rejected,finish=SUCCESS]]',
    });
    expect(await untilMusicEnds(client, refused)).toMatchObject({
      status: 'FAILURE',
      fail_reason: expect.stringContaining('the request violates the content policy'),
      data: [],
    });
    expect(await untilMusicEnds(client, odd)).toMatchObject({
      status: 'FAILURE',
      fail_reason: expect.stringContaining('clip rejected'),
    });
    expect(await settledCapture(harness, refused)).toBe(0n);
    expect(await settledCapture(harness, odd)).toBe(0n);
  });

  it('keeps polling a task the upstream reports UNKNOWN until it ends', async () => {
    const id = await submitted(client, 'music', { prompt: 'lost and found [[sim unknown=3]]' });
    const done = await untilMusicEnds(client, id);
    expect(done.status).toBe('SUCCESS');
    const upstreamId = await upstreamIdOf(harness, id);
    const asked = (await lambdaCalls(harness)).filter(
      (entry) => entry.path === '/lambda/fetch' && entry.method === 'POST' && entry.body.includes(upstreamId),
    );
    // Three UNKNOWN answers, then the success: the poll cycle asked at least four times.
    expect(asked.length).toBeGreaterThanOrEqual(4);
  });

  it('continues a clip of a completed task on the channel that made it, with the upstream’s task id', async () => {
    const source = await submitted(client, 'music', { prompt: 'first verse' });
    const [clip] = (await untilMusicEnds(client, source)).data;
    const id = await submitted(client, 'music', {
      prompt: 'second verse',
      continue_clip_id: clip.id,
      continue_at: 42.5,
      task_id: source,
    });
    expect((await untilMusicEnds(client, id)).status).toBe('SUCCESS');
    const sent = (await lambdaCalls(harness)).filter(
      (entry) => entry.path === '/lambda/submit/music' && entry.body.includes('second verse'),
    );
    expect(JSON.parse(sent[0].body)).toMatchObject({
      continue_clip_id: clip.id,
      continue_at: 42.5,
      task_id: await upstreamIdOf(harness, source),
      mv: 'lambda-v3-0',
    });
  });

  it('honours Idempotency-Key: the same request answers the first task, another one is a 409', async () => {
    const body = { prompt: 'once only' };
    const headers = { 'idempotency-key': 'music-once-1' };
    const holdsOfAccount = async () =>
      (
        await harness.query<{ n: number }>('select count(*)::int as n from holds where account_id = $1', [
          demo.accountId,
        ])
      )[0].n;
    const first = await client.submit('music', body, headers);
    const holdsAfterFirst = await holdsOfAccount();
    const again = await client.submit('music', body, headers);
    expect(again.status).toBe(200);
    expect(again.body.data).toBe(first.body.data);
    expect(await holdsOfAccount()).toBe(holdsAfterFirst);
    const other = await client.submit('music', { prompt: 'something else' }, headers);
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'idempotency_conflict', data: null });
  });
});
