import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { JournalEntry } from '@gateway/simulators';
import { QUEUE_NAMES } from '@gateway/tasks';
import { TaskStepWorkerModule, WorkerRuntimeModule } from '@gateway/tasks/worker';
import { waitFor } from '@gateway/testing';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { openAiClient } from './image-demo';

interface VideoAnswer {
  id: string;
  status: string;
  error?: { message: string; type: string; param: string | null; code: string };
}

interface ErrorAnswer {
  error?: { message: string; type: string; param: string | null; code: string };
}

/** Micros per second of every test model. */
const PER_SECOND = 1_000n;
const CREDIT = 100_000_000n;
const SIM_KEY = 'sim-compat-key';

/**
 * worker-video's composition (apps/worker-video/src/worker-video.module.ts: the shared step worker on
 * the video-tasks queue), built from the libraries, as an app's test may not import another app.
 */
@Module({})
class VideoWorkerUnderTest {
  static forEnvironment(env: Record<string, string>): DynamicModule {
    return {
      module: VideoWorkerUnderTest,
      imports: [
        WorkerRuntimeModule.forRoot({ serviceName: 'worker-video', env }),
        TaskStepWorkerModule.forQueue({
          queue: QUEUE_NAMES.videoTasks,
          concurrencyVariable: 'VIDEO_WORKER_CONCURRENCY',
          defaultConcurrency: 8,
          timing: { minPollDelayMs: 20, maxPollDelayMs: 100 },
        }),
      ],
    };
  }
}

/** A loopback server that counts what reaches it (the SSRF trap) or streams without end (the slow store). */
interface LocalServer {
  host: string;
  hits: string[];
  /** Settles when a connection that carried a request has closed. */
  closedConnections: Promise<void>[];
  close(): Promise<void>;
}

async function startLocalServer(
  answer: (response: import('node:http').ServerResponse) => void,
): Promise<LocalServer> {
  const hits: string[] = [];
  const closedConnections: Promise<void>[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    closedConnections.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
    answer(response);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    closedConnections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * `GET /v1/videos/{id}/content` end to end: videos created through the gateway, run by a video worker
 * against the compat simulator, downloaded through the gateway from the wire's `/content` (the
 * first-party profile) or from a relay's result URL (the URL placement profiles), with ranges, an
 * expired link renewed, result URLs at private addresses refused, and the official SDK.
 */
describe('GET /v1/videos/{id}/content', () => {
  let harness: GatewayHarness;
  let gateway: GatewayInstance;
  let worker: INestApplicationContext;
  let trap: LocalServer;
  let slowStore: LocalServer;
  let key: string;
  let accountId: string;
  let strangerKey: string;
  /** Completed videos by model, created once. */
  const finished = new Map<string, string>();

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    trap = await startLocalServer((response) =>
      response.writeHead(200, { 'content-type': 'video/mp4' }).end('x'),
    );
    slowStore = await startLocalServer((response) => {
      response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(1024 ** 3) });
      const timer = setInterval(() => response.write(Buffer.alloc(16 * 1024, 1)), 20);
      response.once('close', () => clearInterval(timer));
    });
    const sim = harness.simulatorUrl;
    const channels: Record<string, string> = {
      'delta-2': sim,
      'nu-url': `${sim}/@placement=video_url`,
      'nu-refresh': `${sim}/@placement=url,expired_links=1`,
      'nu-private': `${sim}/@placement=output.url,result_host=10.0.0.7`,
      'nu-trap': `${sim}/@placement=metadata.url,result_host=${trap.host}`,
      'nu-slow': `${sim}/@placement=video_url,result_host=${slowStore.host}`,
    };
    await harness.adminOk('PUT', '/admin/prices', {
      prices: Object.keys(channels).map((model) => ({
        model,
        perVideoSecond: { default: PER_SECOND.toString() },
      })),
    });
    for (const [model, baseUrl] of Object.entries(channels)) {
      await harness.createChannel({
        type: 'compat',
        name: `video-${model}`,
        secret: SIM_KEY,
        baseUrl,
        models: [{ model }],
      });
    }
    // The simulator and the slow store are on loopback: this instance may reach them, and nothing else
    // private (the trap's port included). Started after the channels: its catalog loads them at start.
    gateway = await harness.startInstance({
      ssrfAllowHosts: [new URL(sim).host, slowStore.host],
    });
    accountId = await harness.createAccount(CREDIT);
    ({ key } = await harness.createKey(accountId));
    ({ key: strangerKey } = await harness.createKey(await harness.createAccount(CREDIT)));
    const { config } = harness;
    worker = await NestFactory.createApplicationContext(
      VideoWorkerUnderTest.forEnvironment({
        DATABASE_URL: config.databaseUrl,
        REDIS_URL: config.redisUrl,
        REDIS_PREFIX: config.redisPrefix,
        ADMIN_TOKEN: config.adminToken,
        MASTER_KEY: config.masterKeys.currentKey.toString('hex'),
        LOG_LEVEL: 'silent',
      }),
      { logger: false },
    );
  });
  afterAll(async () => {
    await worker?.close();
    await harness.close();
    await Promise.all([trap.close(), slowStore.close()]);
  });

  const authorized = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });

  async function createVideo(model: string, prompt = 'a lighthouse at dusk'): Promise<string> {
    const answer = await harness.request<VideoAnswer>('POST', '/v1/videos', {
      body: { model, prompt },
      headers: authorized(),
      baseUrl: gateway.url,
    });
    if (answer.status !== 200) throw new Error(`create answered ${answer.status}: ${answer.text}`);
    return answer.body.id;
  }

  async function statusOf(id: string): Promise<string> {
    const answer = await harness.request<VideoAnswer>('GET', `/v1/videos/${id}`, {
      headers: authorized(),
      baseUrl: gateway.url,
    });
    return answer.body.status;
  }

  /** A completed video of the model (one per model, made on first use). */
  async function completedVideo(model: string): Promise<string> {
    const known = finished.get(model);
    if (known) return known;
    const id = await createVideo(model);
    await waitFor(async () => (await statusOf(id)) === 'completed');
    finished.set(model, id);
    return id;
  }

  async function content(
    id: string,
    options: { range?: string; variant?: string; asKey?: string } = {},
  ): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const query = options.variant === undefined ? '' : `?variant=${encodeURIComponent(options.variant)}`;
    const response = await fetch(`${gateway.url}/v1/videos/${id}/content${query}`, {
      headers: {
        authorization: `Bearer ${options.asKey ?? key}`,
        ...(options.range === undefined ? {} : { range: options.range }),
      },
    });
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    };
  }

  async function upstreamVideoIdOf(id: string): Promise<string> {
    const rows = await harness.query<{ video_id: string }>(
      "select upstream_handle->>'videoId' as video_id from tasks where id = $1",
      [id],
    );
    return rows[0].video_id;
  }

  /** The bytes as the simulator serves them itself, asked directly with the channel's key. */
  async function simulatorBytes(id: string, variant = 'video'): Promise<Buffer> {
    const videoId = await upstreamVideoIdOf(id);
    const response = await fetch(`${harness.simulatorUrl}/v1/videos/${videoId}/content?variant=${variant}`, {
      headers: { authorization: `Bearer ${SIM_KEY}` },
    });
    expect(response.status).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  async function journal(): Promise<JournalEntry[]> {
    const response = await fetch(`${harness.simulatorUrl}/__sim/requests?limit=200`);
    return (await response.json()) as JournalEntry[];
  }

  const errorOf = (body: Buffer): ErrorAnswer['error'] =>
    (JSON.parse(body.toString('utf8')) as ErrorAnswer).error;

  describe.each([
    ["the wire's /content (first-party, content-only)", 'delta-2'],
    ['a result URL (relay, video_url placement)', 'nu-url'],
  ])('from %s', (_source, model) => {
    let id: string;
    let whole: Buffer;

    beforeAll(async () => {
      id = await completedVideo(model);
      whole = await simulatorBytes(id);
    });

    it('streams the whole video with its type, length and Accept-Ranges', async () => {
      const answer = await content(id);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('video/mp4');
      expect(answer.headers.get('content-length')).toBe(String(whole.length));
      expect(answer.headers.get('accept-ranges')).toBe('bytes');
      expect(answer.body.equals(whole)).toBe(true);
    });

    it('answers HEAD with the headers alone', async () => {
      const response = await fetch(`${gateway.url}/v1/videos/${id}/content`, {
        method: 'HEAD',
        headers: authorized(),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBe(String(whole.length));
      expect((await response.arrayBuffer()).byteLength).toBe(0);
    });

    it.each([
      ['bytes=0-99', (size: number) => [0, 99, size]],
      ['bytes=1000-', (size: number) => [1000, size - 1, size]],
      ['bytes=-500', (size: number) => [size - 500, size - 1, size]],
    ])('passes Range %s on and answers 206 with Content-Range', async (range, expected) => {
      const answer = await content(id, { range });
      const [start, end, size] = expected(whole.length);
      expect(answer.status).toBe(206);
      expect(answer.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
      expect(answer.headers.get('content-length')).toBe(String(end - start + 1));
      expect(answer.body.equals(whole.subarray(start, end + 1))).toBe(true);
    });

    it('answers an unsatisfiable range 416 naming the size, in the OpenAI-style envelope', async () => {
      const answer = await content(id, { range: `bytes=${whole.length}-` });
      expect(answer.status).toBe(416);
      expect(answer.headers.get('content-range')).toBe(`bytes */${whole.length}`);
      expect(errorOf(answer.body)).toMatchObject({
        code: 'range_not_satisfiable',
        type: 'invalid_request_error',
      });
    });

    it.each([
      ['thumbnail', 'image/webp'],
      ['spritesheet', 'image/jpeg'],
    ])("serves the %s variant from the wire's /content", async (variant, contentType) => {
      const answer = await content(id, { variant });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(contentType);
      expect(answer.body.equals(await simulatorBytes(id, variant))).toBe(true);
    });
  });

  it('renews an expired result link once (one more retrieve upstream) and keeps the fresh one', async () => {
    const id = await completedVideo('nu-refresh');
    const [{ result_url: expiredUrl }] = await harness.query<{ result_url: string }>(
      'select result_url from tasks where id = $1',
      [id],
    );
    const videoId = await upstreamVideoIdOf(id);
    const retrievesBefore = (await journal()).filter(
      (entry) => entry.path === `/v1/videos/${videoId}`,
    ).length;
    const answer = await content(id, { range: 'bytes=0-99' });
    expect(answer.status).toBe(206);
    expect(answer.body.equals((await simulatorBytes(id)).subarray(0, 100))).toBe(true);
    const retrieves = (await journal()).filter((entry) => entry.path === `/v1/videos/${videoId}`);
    expect(retrieves.length - retrievesBefore).toBe(1);
    const [{ result_url: renewedUrl }] = await harness.query<{ result_url: string }>(
      'select result_url from tasks where id = $1',
      [id],
    );
    expect(renewedUrl).not.toBe(expiredUrl);
    // The kept link serves the next download without asking the upstream again.
    expect((await content(id)).status).toBe(200);
    const after = (await journal()).filter((entry) => entry.path === `/v1/videos/${videoId}`);
    expect(after.length).toBe(retrieves.length);
  });

  it.each([
    ['a private range', 'nu-private'],
    ['a loopback port the operator did not allow', 'nu-trap'],
  ])('refuses a result URL at %s with a 502, fetching nothing', async (_name, model) => {
    const id = await completedVideo(model);
    const answer = await content(id);
    expect(answer.status).toBe(502);
    expect(errorOf(answer.body)).toMatchObject({
      type: 'server_error',
      code: 'bad_gateway',
      message: expect.stringMatching(/non-public address/),
    });
    expect(trap.hits).toEqual([]);
    expect(harness.logs.some((line) => line.includes(id) && line.includes('non-public address'))).toBe(true);
  });

  it('ends the upstream fetch when the client goes away mid-stream', async () => {
    const id = await completedVideo('nu-slow');
    const client = new AbortController();
    const response = await fetch(`${gateway.url}/v1/videos/${id}/content`, {
      headers: authorized(),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    client.abort();
    await reader.read().catch(() => undefined);
    // The store's side of the relay closes: the gateway let go of it.
    await Promise.all(slowStore.closedConnections);
    expect(slowStore.hits).toHaveLength(1);
  });

  it('downloads through the official SDK: videos.downloadContent returns the simulator’s bytes', async () => {
    const openai = openAiClient(gateway.url, key);
    const created = await openai.videos.create({ model: 'delta-2', prompt: 'a paper boat on a river' });
    await waitFor(async () => (await openai.videos.retrieve(created.id)).status === 'completed');
    const video = await openai.videos.downloadContent(created.id);
    expect(Buffer.from(await video.arrayBuffer()).equals(await simulatorBytes(created.id))).toBe(true);
    const thumbnail = await openai.videos.downloadContent(created.id, { variant: 'thumbnail' });
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
  });

  it('answers 404 to another account, for a deleted video, an unknown id and a malformed one', async () => {
    const id = await completedVideo('delta-2');
    const stranger = await content(id, { asKey: strangerKey });
    expect(stranger.status).toBe(404);
    expect(errorOf(stranger.body)).toMatchObject({ code: 'not_found' });
    for (const other of [
      'video_AAAAAAAAAAAAAAAAAAAAAA',
      'video_..%2f..',
      `video_${'a'.repeat(90)}`,
      'task_1',
    ]) {
      expect((await content(other)).status).toBe(404);
    }
    const doomed = await createVideo('delta-2');
    await waitFor(async () => (await statusOf(doomed)) === 'completed');
    const removal = await harness.request('DELETE', `/v1/videos/${doomed}`, {
      headers: authorized(),
      baseUrl: gateway.url,
    });
    expect(removal.status).toBe(200);
    expect((await content(doomed)).status).toBe(404);
  });

  it('answers 409 while the video is not completed, and 400 for an unknown variant', async () => {
    const running = await createVideo('delta-2', 'a slow sunrise [[sim task_ms=600000]]');
    const early = await content(running);
    expect(early.status).toBe(409);
    expect(errorOf(early.body)).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/completed/),
    });
    // Cancelled for free once the upstream accepted it (its wire cancels), not while being submitted.
    await waitFor(async () => {
      const [row] = await harness.query<{ accepted: boolean }>(
        'select upstream_handle is not null as accepted from tasks where id = $1',
        [running],
      );
      return row.accepted;
    }, 30_000);
    const cancel = await harness.request('DELETE', `/v1/videos/${running}`, {
      headers: authorized(),
      baseUrl: gateway.url,
    });
    expect(cancel.status).toBe(200);
    const unknown = await content(await completedVideo('delta-2'), { variant: 'poster' });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown.body)).toMatchObject({ param: 'variant' });
  });

  it.each([
    ['bytes=0-1,5-6', 200],
    ['items=0-5', 200],
    ['bytes=99999999999999999999-', 200],
    ['bytes=5-1', 200],
    ['bytes=0-0', 206],
  ])('treats the hostile Range %p as the RFC allows (%d)', async (range, status) => {
    const answer = await content(await completedVideo('delta-2'), { range });
    expect(answer.status).toBe(status);
  });

  it('left the books balanced with nothing held: every video captured once, the cancelled one released', async () => {
    await waitFor(async () => (await harness.auditAccount(accountId)).held === 0n);
    const books = await harness.settledBooks(accountId);
    expect(books.captures).toBeGreaterThan(0n);
  });
});
