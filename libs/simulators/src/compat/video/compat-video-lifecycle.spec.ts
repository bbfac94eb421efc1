import { imageSize } from 'image-size';
import { JournalEntry } from '../../request-journal';
import { RunningSimulator, startSimulator } from '../../server';
import { getBytes, getUrl, parseJson, postJson } from '../../testing/simulator-client.util';
import { simulatedMp4 } from './compat-video-bytes.util';

const AUTH = { authorization: 'Bearer sim-compat-key' };
type VideoObject = Record<string, unknown> & { id: string; status: string };

describe('compat video lifecycle (upstreams.md §2.4)', () => {
  let simulator: RunningSimulator;
  const create = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const result = await postJson(
      `${simulator.url}/v1/videos`,
      { model: 'delta-2', ...body },
      { ...AUTH, ...headers },
    );
    expect(result.status).toBe(200);
    return parseJson(result.text) as VideoObject;
  };
  const retrieve = async (id: string, headers: Record<string, string> = {}) =>
    parseJson(
      (await getUrl(`${simulator.url}/v1/videos/${id}`, { ...AUTH, ...headers })).text,
    ) as VideoObject;
  const content = (id: string, query = '', headers: Record<string, string> = {}) =>
    fetch(`${simulator.url}/v1/videos/${id}/content${query}`, { headers: { ...AUTH, ...headers } });
  const completed = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const video = await create({ prompt: 'a boat', ...body }, headers);
    const answer = await retrieve(video.id, headers);
    expect(answer.status).toBe('completed');
    return answer;
  };

  beforeAll(async () => {
    simulator = await startSimulator();
  });
  afterAll(() => simulator.close());

  it('answers queued, then in_progress with progress, then completed (polls=)', async () => {
    const video = await create({ prompt: 'a kite [[sim polls=2]]' });
    expect(await retrieve(video.id)).toMatchObject({ status: 'queued', progress: 0, completed_at: null });
    expect(await retrieve(video.id)).toMatchObject({ status: 'in_progress', progress: 50 });
    const done = await retrieve(video.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100, completed_at: expect.any(Number) });
    expect(done['expires_at']).toBe((done['completed_at'] as number) + 3600);
    expect(done).not.toHaveProperty('video_url');
  });

  it('keeps a video pending until its task_ms has passed', async () => {
    const video = await create({ prompt: 'slow [[sim task_ms=600000]]' });
    await retrieve(video.id);
    const answer = await retrieve(video.id);
    expect(answer).toMatchObject({ status: 'in_progress' });
    expect(answer['progress']).toBeLessThan(99);
  });

  it('reports when each completed video finished and when a retrieve first said so', async () => {
    const video = await create({ prompt: 'timed [[sim polls=1]]' });
    const pending = await create({ prompt: 'slow [[sim task_ms=600000]]' });
    await retrieve(video.id);
    await retrieve(pending.id);
    const beforeCompletingRetrieve = Date.now();
    expect((await retrieve(video.id)).status).toBe('completed');
    const completions = JSON.parse(
      (await getUrl(`${simulator.url}/__sim/videos/completions`)).text,
    ) as Array<{ id: string; readyAtMs: number; completedAtMs: number }>;
    const completion = completions.find((entry) => entry.id === video.id);
    expect(completion?.readyAtMs).toBeLessThanOrEqual(beforeCompletingRetrieve);
    expect(completion?.completedAtMs).toBeGreaterThanOrEqual(beforeCompletingRetrieve);
    expect(completions.map((entry) => entry.id)).not.toContain(pending.id);
  });

  it('answers in the status words words= picks, at create or per retrieve', async () => {
    const words = 'words=pending+running+succeeded+error+canceled';
    const video = await create({ prompt: `x [[sim polls=2, ${words}]]` });
    expect(video.status).toBe('pending');
    expect((await retrieve(video.id)).status).toBe('pending');
    expect((await retrieve(video.id)).status).toBe('running');
    expect((await retrieve(video.id)).status).toBe('succeeded');
    expect((await retrieve(video.id, { 'x-sim': 'words=++finished' })).status).toBe('finished');
  });

  it.each([
    ['video_url', (object: Record<string, unknown>) => object['video_url']],
    ['url', (object: Record<string, unknown>) => object['url']],
    ['output.url', (object: Record<string, unknown>) => (object['output'] as { url: string }).url],
    ['metadata.url', (object: Record<string, unknown>) => (object['metadata'] as { url: string }).url],
  ])('puts the result link at %s, and the link serves the MP4', async (placement, linkOf) => {
    const answer = await completed({ prompt: `x [[sim placement=${placement}]]` });
    const link = linkOf(answer) as string;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/video_[A-Za-z0-9]{24}\.mp4$/);
    const download = await getBytes(link);
    expect(download).toMatchObject({ status: 200, contentType: 'video/mp4' });
    expect(download.bytes.equals(simulatedMp4().bytes)).toBe(true);
    expect(answer['expires_at']).toBeGreaterThan(Date.now() / 1000);
  });

  it('hands out expired links first (expired_links=), then a fresh one on a re-retrieve', async () => {
    const video = await create({ prompt: 'x [[sim placement=video_url, expired_links=1, url_ttl=600]]' });
    const first = (await retrieve(video.id))['video_url'] as string;
    expect((await getBytes(first)).status).toBe(403);
    const second = (await retrieve(video.id))['video_url'] as string;
    expect(second).not.toBe(first);
    expect((await getBytes(second)).status).toBe(200);
    expect((await retrieve(video.id))['video_url']).toBe(second);
  });

  it('points result links at the host result_host= names', async () => {
    const answer = await completed({ prompt: 'x [[sim placement=url, result_host=10.20.30.40:8080]]' });
    expect(answer['url']).toMatch(/^http:\/\/10\.20\.30\.40:8080\/files\/video_/);
  });

  it('fails a video later with error= and error_after=, with error.code', async () => {
    const video = await create({ prompt: 'x [[sim error=overload, error_after=1]]' });
    expect(video.status).toBe('queued');
    expect((await retrieve(video.id)).status).toBe('queued');
    expect(await retrieve(video.id)).toMatchObject({
      status: 'failed',
      error: { code: 'server_error', message: expect.any(String) },
      completed_at: null,
    });
    const moderated = await create({ prompt: 'x [[sim error=content_policy, error_after=0]]' });
    expect(await retrieve(moderated.id)).toMatchObject({ error: { code: 'moderation_blocked' } });
  });

  it('blocks the output when the video would complete (block=output), with the code= picked', async () => {
    const video = await create({ prompt: 'x [[sim block=output, code=content_policy_violation, polls=1]]' });
    expect((await retrieve(video.id)).status).toBe('queued');
    expect(await retrieve(video.id)).toMatchObject({
      status: 'failed',
      error: { code: 'content_policy_violation' },
    });
    expect((await content(video.id)).status).toBe(400);
  });

  describe('content', () => {
    it('serves the three variants with their types', async () => {
      const video = await completed({ size: '1280x720' });
      const mp4 = await content(video.id);
      expect(mp4.status).toBe(200);
      expect(mp4.headers.get('content-type')).toBe('video/mp4');
      expect(mp4.headers.get('accept-ranges')).toBe('bytes');
      expect(Buffer.from(await mp4.arrayBuffer()).length).toBeGreaterThan(300 * 1024);
      const thumbnail = await content(video.id, '?variant=thumbnail');
      expect(thumbnail.headers.get('content-type')).toBe('image/webp');
      expect(imageSize(Buffer.from(await thumbnail.arrayBuffer()))).toMatchObject({
        width: 1280,
        height: 720,
      });
      const sprites = await content(video.id, '?variant=spritesheet');
      expect(sprites.headers.get('content-type')).toBe('image/jpeg');
      expect(imageSize(Buffer.from(await sprites.arrayBuffer()))).toMatchObject({ type: 'jpg', width: 800 });
      expect((await content(video.id, '?variant=poster')).status).toBe(400);
    });

    it('honours Range: a part with Content-Range, a suffix, and 416 past the end', async () => {
      const video = await completed();
      const whole = simulatedMp4().bytes;
      const part = await content(video.id, '', { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);
      const suffix = await content(video.id, '', { range: 'bytes=-10' });
      expect(Buffer.from(await suffix.arrayBuffer()).equals(whole.subarray(whole.length - 10))).toBe(true);
      const beyond = await content(video.id, '', { range: `bytes=${whole.length}-` });
      expect(beyond.status).toBe(416);
      expect(beyond.headers.get('content-range')).toBe(`bytes */${whole.length}`);
    });

    it('answers 400 before completion and 404 for another key or an unknown id', async () => {
      const pending = await create({ prompt: 'x [[sim polls=5]]' });
      expect((await content(pending.id)).status).toBe(400);
      expect((await content('video_nothing')).status).toBe(404);
      await postJson(`${simulator.url}/__sim/reset`, {});
      const otherSimulator = await startSimulator({ keys: { compat: ['a-key', 'b-key'] } });
      try {
        const created = await postJson(
          `${otherSimulator.url}/v1/videos`,
          { prompt: 'x' },
          { authorization: 'Bearer a-key' },
        );
        const { id } = parseJson(created.text) as { id: string };
        const foreign = await getUrl(`${otherSimulator.url}/v1/videos/${id}`, {
          authorization: 'Bearer b-key',
        });
        expect(foreign.status).toBe(404);
      } finally {
        await otherSimulator.close();
      }
    });
  });

  it('remixes a completed video into a new one, and refuses an unfinished source', async () => {
    const source = await completed({ seconds: '8', size: '1280x720' });
    const remix = await postJson(
      `${simulator.url}/v1/videos/${source.id}/remix`,
      { prompt: 'now at night' },
      AUTH,
    );
    expect(remix.status).toBe(200);
    expect(parseJson(remix.text)).toMatchObject({
      status: 'queued',
      model: 'delta-2',
      prompt: 'now at night',
      seconds: '8',
      size: '1280x720',
      remixed_from_video_id: source.id,
    });
    const pending = await create({ prompt: 'x [[sim polls=3]]' });
    const refused = await postJson(`${simulator.url}/v1/videos/${pending.id}/remix`, { prompt: 'y' }, AUTH);
    expect(refused.status).toBe(400);
  });

  it('creates once per Idempotency-Key and counts the requests per key', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    const first = await create({ prompt: 'same' }, { 'idempotency-key': 'task-1' });
    const again = await create({ prompt: 'same' }, { 'idempotency-key': 'task-1' });
    const other = await create({ prompt: 'same' }, { 'idempotency-key': 'task-2' });
    await create({ prompt: 'no key' });
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
    const creates = parseJson((await getUrl(`${simulator.url}/__sim/videos/creates`)).text);
    expect(creates).toEqual({
      'task-1': { requests: 2, created: 1, videoId: first.id },
      'task-2': { requests: 1, created: 1, videoId: other.id },
    });
    expect(parseJson((await getUrl(`${simulator.url}/__sim/videos/creates?key=task-2`)).text)).toEqual({
      'task-2': { requests: 1, created: 1, videoId: other.id },
    });
    const stats = parseJson((await getUrl(`${simulator.url}/__sim/stats`)).text);
    expect(stats['videos']).toEqual({ createRequests: 4, created: 3, replayed: 1, cancelled: 0 });
    const [entry] = JSON.parse(
      (await getUrl(`${simulator.url}/__sim/requests?limit=2`)).text,
    ) as JournalEntry[];
    expect(entry.headers['idempotency-key']).toBe('task-2');
  });

  it('lists the key’s videos with after, limit and order', async () => {
    const listing = await startSimulator({ keys: { compat: ['list-key'] } });
    const auth = { authorization: 'Bearer list-key' };
    try {
      const ids: string[] = [];
      for (const prompt of ['one', 'two', 'three']) {
        const created = await postJson(`${listing.url}/v1/videos`, { prompt }, auth);
        ids.push((parseJson(created.text) as { id: string }).id);
      }
      const list = async (query: string) =>
        parseJson((await getUrl(`${listing.url}/v1/videos${query}`, auth)).text);
      expect(await list('')).toMatchObject({
        object: 'list',
        data: [{ id: ids[2] }, { id: ids[1] }, { id: ids[0] }],
        first_id: ids[2],
        last_id: ids[0],
        has_more: false,
      });
      expect(await list('?order=asc&limit=2')).toMatchObject({
        data: [{ id: ids[0] }, { id: ids[1] }],
        has_more: true,
      });
      expect(await list(`?order=asc&after=${ids[1]}`)).toMatchObject({
        data: [{ id: ids[2] }],
        has_more: false,
      });
      expect((await getUrl(`${listing.url}/v1/videos?limit=0`, auth)).status).toBe(400);
    } finally {
      await listing.close();
    }
  });

  it('cancels an unfinished video on DELETE and removes a finished one', async () => {
    await postJson(`${simulator.url}/__sim/reset`, {});
    const running = await create({ prompt: 'x [[sim polls=5]]' });
    const deleted = await fetch(`${simulator.url}/v1/videos/${running.id}`, {
      method: 'DELETE',
      headers: AUTH,
    });
    expect(await deleted.json()).toEqual({ id: running.id, object: 'video.deleted', deleted: true });
    expect(await retrieve(running.id)).toMatchObject({ status: 'cancelled' });
    const finished = await completed();
    await fetch(`${simulator.url}/v1/videos/${finished.id}`, { method: 'DELETE', headers: AUTH });
    expect((await getUrl(`${simulator.url}/v1/videos/${finished.id}`, AUTH)).status).toBe(404);
    const stats = parseJson((await getUrl(`${simulator.url}/__sim/stats`)).text);
    expect(stats['videos']).toMatchObject({ cancelled: 1 });
  });

  it('follows the videoPlacement option when no directive names one', async () => {
    const relay = await startSimulator({ videoPlacement: 'output.url' });
    try {
      const created = parseJson((await postJson(`${relay.url}/v1/videos`, { prompt: 'x' }, AUTH)).text);
      const answer = parseJson((await getUrl(`${relay.url}/v1/videos/${String(created['id'])}`, AUTH)).text);
      expect(answer['output']).toEqual({ url: expect.stringContaining('/files/video_') });
    } finally {
      await relay.close();
    }
  });
});
