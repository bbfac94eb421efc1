import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { DEFAULT_BETA_KEY, DEFAULT_BETA_RELAY_KEY, type JournalEntry } from '@gateway/simulators';
import { waitFor } from '@gateway/testing';
import { holdsOf, until } from './alpha-demo';
import { BetaActionClient, SUBMIT_ACTION } from './beta-action.client';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { holdOf, newVideoAccount, settledCapture, startVideoWorker } from './video-demo';

const PER_CALL = 1_000n;
const PER_SECOND: Readonly<Record<string, bigint>> = { '720p': 10_000n, '1080p': 20_000n };
const FIRST = 'https://img.example.test/first.png';
const LAST = 'https://img.example.test/last.png';

interface VideoAnswer {
  id: string;
  status: string;
  video_url?: string;
}

/**
 * beta video (upstreams §4.3–§4.5) through the `/bt` Action API, on a signed channel and on a relay
 * (`sk-`) channel, and through `/v1/videos`: the video `req_key` resolved by the dialects table into
 * a video task (row kind `video`, held at the model's video prices, run by worker-video), the same
 * key and fields received upstream, `CVSync2AsyncGetResult` answering `done` with the gateway's
 * content URL, which downloads; refusals in the beta envelope with nothing held.
 */
describe('beta video on /bt and /v1/videos', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let worker: INestApplicationContext;
  let client: BetaActionClient;
  let key: string;
  let marker = 0;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    const perVideoSecond = Object.fromEntries(
      Object.entries(PER_SECOND).map(([tier, micros]) => [tier, micros.toString()]),
    );
    await harness.adminOk('PUT', '/admin/prices', {
      prices: ['beta-video-3.0', 'beta-video-2.0'].map((model) => ({
        model,
        perCall: PER_CALL.toString(),
        perVideoSecond,
      })),
    });
    // beta-video-3.0 on a signed channel, beta-video-2.0 on a relay of the same wire.
    for (const [secret, model] of [
      [DEFAULT_BETA_KEY, 'beta-video-3.0'],
      [DEFAULT_BETA_RELAY_KEY, 'beta-video-2.0'],
    ]) {
      await harness.createChannel({
        type: 'beta',
        name: `beta-video-${randomBytes(3).toString('hex')}`,
        secret,
        models: [{ model }],
      });
    }
    ({ key } = await newVideoAccount(harness));
    worker = await startVideoWorker(harness);
    gateway = await harness.startSimulatorTrustingInstance();
    client = new BetaActionClient(gateway.url, key);
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
  });

  const prompt = (what: string) => `${what} #${++marker}`;
  const contentUrl = (id: string) => `${gateway.url}/v1/videos/${id}/content`;

  /** The one beta submission the simulator received whose body carries `text`. */
  async function submissionOf(text: string): Promise<JournalEntry> {
    let found: JournalEntry[] = [];
    await waitFor(async () => {
      const entries = (await (
        await fetch(`${harness.simulatorUrl}/__sim/requests`)
      ).json()) as JournalEntry[];
      found = entries.filter((entry) => entry.query['Action'] === SUBMIT_ACTION && entry.body.includes(text));
      return found.length > 0;
    }, 30_000);
    expect(found).toHaveLength(1);
    return found[0];
  }

  async function expectDownloadable(url: string): Promise<void> {
    const download = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('video/mp4');
    expect(
      Buffer.from(await download.arrayBuffer())
        .subarray(4, 8)
        .toString('ascii'),
    ).toBe('ftyp');
  }

  it('runs a signed first-and-last-frame 1080p task: the key, frames and seed received, done with the gateway URL', async () => {
    const text = prompt('A kite between two frames [[sim polls=2]]');
    const taskId = await client.submit({
      req_key: 'beta_i2v_first_tail_v30_1080',
      prompt: text,
      image_urls: [FIRST, LAST],
      frames: 241,
      seed: 7,
    });
    expect(taskId).toMatch(/^bt_/);
    const [row] = await harness.query<{ kind: string; model: string }>(
      'select kind, model from tasks where id = $1',
      [taskId],
    );
    expect(row).toEqual({ kind: 'video', model: 'beta-video-3.0' });
    const held = PER_CALL + 10n * PER_SECOND['1080p'];
    expect((await holdOf(harness, taskId))?.amount).toBe(held);

    const received = await submissionOf(text);
    expect(received).toMatchObject({ path: '/', authenticated: true });
    expect(JSON.parse(received.body)).toEqual({
      req_key: 'beta_i2v_first_tail_v30_1080',
      prompt: text,
      image_urls: [FIRST, LAST],
      frames: 241,
      seed: 7,
    });

    const { last, statuses } = await client.waitForResult('beta_i2v_first_tail_v30_1080', taskId);
    expect(statuses.at(-1)).toBe('done');
    expect(statuses.slice(0, -1).every((status) => ['in_queue', 'generating'].includes(status))).toBe(true);
    expect(last).toMatchObject({
      httpStatus: 200,
      envelope: { code: 10000, data: { status: 'done', video_url: contentUrl(taskId) } },
    });
    await expectDownloadable(contentUrl(taskId));
    expect(await settledCapture(harness, taskId)).toBe(held);
  });

  it('runs a text task through a relay (sk-) channel: the relay received it on /bt', async () => {
    const text = prompt('Rain over a harbour');
    const taskId = await client.submit({
      req_key: 'beta_vgfm_t2v_l20',
      prompt: text,
      frames: 121,
      aspect_ratio: '9:16',
    });
    const received = await submissionOf(text);
    expect(received).toMatchObject({ path: '/bt', authenticated: true });
    expect(JSON.parse(received.body)).toEqual({
      req_key: 'beta_vgfm_t2v_l20',
      prompt: text,
      frames: 121,
      aspect_ratio: '9:16',
    });
    const { last } = await client.waitForResult('beta_vgfm_t2v_l20', taskId);
    expect(last.envelope.data).toMatchObject({ status: 'done', video_url: contentUrl(taskId) });
    await expectDownloadable(contentUrl(taskId));
    const cost = PER_CALL + 5n * PER_SECOND['720p'];
    expect(await settledCapture(harness, taskId)).toBe(cost);
    // Once settled (just after its terminal status), the task answers what it cost: the capture above.
    let settled = last;
    await waitFor(async () => {
      settled = await client.getResult('beta_vgfm_t2v_l20', taskId);
      return 'cost_micros' in (settled.envelope.data as object);
    });
    expect(settled.envelope.data).toEqual({
      status: 'done',
      video_url: contentUrl(taskId),
      cost_micros: cost.toString(),
    });
  });

  it('runs beta-video-3.0 from /v1/videos on the key its size and seconds select', async () => {
    const text = prompt('A lantern festival');
    const created = await harness.request<VideoAnswer>('POST', '/v1/videos', {
      body: { model: 'beta-video-3.0', prompt: text, size: '720x1280', seconds: '10' },
      headers: { authorization: `Bearer ${key}` },
      baseUrl: gateway.url,
    });
    expect(created.status).toBe(200);
    expect(JSON.parse((await submissionOf(text)).body)).toEqual({
      req_key: 'beta_t2v_v30',
      prompt: text,
      frames: 241,
      aspect_ratio: '9:16',
    });
    const video = await until(
      () =>
        harness.request<VideoAnswer>('GET', `/v1/videos/${created.body.id}`, {
          headers: { authorization: `Bearer ${key}` },
          baseUrl: gateway.url,
        }),
      (answer) => !['queued', 'processing'].includes(answer.body.status),
    );
    expect(video.body).toMatchObject({ status: 'completed', video_url: contentUrl(created.body.id) });
    await expectDownloadable(contentUrl(created.body.id));
  });

  it('answers a task that failed upstream with its error, and releases its hold', async () => {
    const taskId = await client.submit({
      req_key: 'beta_t2v_v30',
      prompt: prompt('Blocked after a while [[sim error=content_policy;error_after=1]]'),
    });
    const { last } = await client.waitForResult('beta_t2v_v30', taskId);
    expect(last.httpStatus).toBe(400);
    expect(last.envelope).toMatchObject({ code: expect.any(Number), data: null });
    expect(last.envelope.code).not.toBe(10000);
    expect(await settledCapture(harness, taskId)).toBe(0n);
  });

  it('refuses a query with another req_key than the task was submitted with', async () => {
    const taskId = await client.submit({ req_key: 'beta_t2v_v30', prompt: prompt('A quiet street') });
    const answer = await client.getResult('beta_t2v_v30_1080p', taskId);
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope).toMatchObject({ code: 50205, data: null });
  });

  describe('bad input: the beta envelope, nothing held', () => {
    let stranger: { key: string; accountId: string };
    let strangerClient: BetaActionClient;

    beforeAll(async () => {
      stranger = await newVideoAccount(harness);
      strangerClient = new BetaActionClient(gateway.url, stranger.key);
    });

    it.each([
      [{ req_key: 'beta_t2v_v30', prompt: 'x', image_urls: [FIRST] }, 400, 'takes 0 images'],
      [{ req_key: 'beta_i2v_first_v30', prompt: 'x' }, 400, 'takes 1 image'],
      [{ req_key: 'beta_i2v_first_tail_v30', image_urls: [FIRST] }, 400, 'takes 2 images'],
      [{ req_key: 'beta_t2v_v30', prompt: 'x', frames: 120 }, 400, '24 × seconds + 1'],
      [{ req_key: 'beta_t2v_v30', prompt: 'x', frames: 481 }, 400, 'frames is 24 × seconds + 1'],
      [{ req_key: 'beta_t2v_v30', prompt: 'x', aspect_ratio: '5:4' }, 400, 'aspect_ratio'],
      [{ req_key: 'beta_t2v_v30' }, 400, 'prompt'],
      [{ req_key: 'beta_t2v_v30', prompt: 'x', seed: -5 }, 400, 'seed'],
      [{ req_key: 'beta_i2v_first_v30', image_urls: ['ftp://x/a.png'] }, 400, 'image_urls'],
      [{ req_key: 'beta_ti2v_v30_pro', prompt: 'x' }, 404, 'not served'],
    ])('%j → HTTP %i, code 50205, naming %s', async (body, status, words) => {
      const answer = await strangerClient.call(SUBMIT_ACTION, body);
      expect(answer.httpStatus).toBe(status);
      expect(answer.envelope).toMatchObject({ code: 50205, data: null });
      expect(answer.envelope.message).toContain(words);
    });

    it('held nothing for any of them', async () => {
      expect(await holdsOf(harness, stranger.accountId)).toBe(0);
    });
  });
});
