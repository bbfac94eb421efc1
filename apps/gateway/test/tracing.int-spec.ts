import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { adminRequest } from './admin-seed';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';
import { sendTextCall, type TextCallKind } from './text-calls.client';

/** One attribute of an OTLP/HTTP JSON export: a key and one typed value. */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  attributes?: OtlpAttribute[];
  status?: { code?: number; message?: string };
}

interface OtlpExport {
  resourceSpans: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans: Array<{ spans: OtlpSpan[] }>;
  }>;
}

/** A received span with its resource's service name and its attributes as a plain object. */
interface ReceivedSpan extends OtlpSpan {
  service: string;
  attributeValues: Record<string, string>;
}

function attributeText(attribute: OtlpAttribute): string {
  const { stringValue, intValue, boolValue, doubleValue } = attribute.value;
  return String(stringValue ?? intValue ?? boolValue ?? doubleValue ?? '');
}

/**
 * An OTLP/HTTP receiver in this process: a plain HTTP server that decodes the exporter's JSON bodies
 * (the exporter-trace-otlp-http package sends JSON) and keeps every span and every raw body.
 */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly bodies: string[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        if (request.method === 'POST' && request.url === '/v1/traces') {
          this.bodies.push(body);
          this.receive(JSON.parse(body) as OtlpExport);
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private receive(exported: OtlpExport): void {
    for (const resourceSpans of exported.resourceSpans) {
      const service =
        resourceSpans.resource?.attributes?.find((attribute) => attribute.key === 'service.name')?.value
          .stringValue ?? '';
      for (const scope of resourceSpans.scopeSpans) {
        for (const span of scope.spans) {
          const attributeValues = Object.fromEntries(
            (span.attributes ?? []).map((attribute) => [attribute.key, attributeText(attribute)]),
          );
          this.spans.push({ ...span, service, attributeValues });
        }
      }
    }
  }
}

const PROMPT = 'A lighthouse keeper paints the night sky';
const TEXT_PROMPT = 'Tell me about tidal clocks';
const IMAGE_PROMPT = 'A copper kettle on a windowsill';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The key the simulator's compat wire accepts. */
const CHANNEL_SECRET = 'sim-compat-key';
/** The key the simulator's kappa wire accepts. */
const KAPPA_SECRET = 'sim-kappa-key';
/** The model of the failover request: a failing kappa channel first, a compat channel second. */
const FAILOVER_MODEL = 'trace-failover';

/** Attribute names that would say a key, a secret, a token, a prompt or a payload left the process. */
const FORBIDDEN_ATTRIBUTE_NAME = /key|secret|token|prompt|authorization|body|payload|content/i;

/**
 * The production build of the gateway, worker-video and worker-image, each its own process exporting to the
 * receiver in this one: the trace has to cross the queue (the job's traceparent) and two processes.
 * (In Jest's module system the exporter cannot load its HTTP transport, a dynamic import: another
 * reason to trace the real processes.)
 */
describe('tracing (OTLP over HTTP, gateway, worker-video and worker-image processes)', () => {
  const receiver = new OtlpReceiver();
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let apps: BuiltApps;
  let gateway: AppProcess;
  let worker: AppProcess;
  let imageWorker: AppProcess;
  let url: string;
  const objectStoreDir = mkdtempSync(join(tmpdir(), 'gw-traced-images-'));
  const adminToken = randomBytes(24).toString('hex');
  const masterKey = randomBytes(32).toString('hex');
  let key = '';
  let channelId = '';
  let channels: SyncChannels;

  /** The spans of the trace a request's id roots, once `complete` says every expected span arrived. */
  async function traceOfRequest(
    requestId: string,
    complete: (spans: ReceivedSpan[]) => boolean,
  ): Promise<ReceivedSpan[]> {
    let spans: ReceivedSpan[] = [];
    await waitFor(async () => {
      const root = receiver.spans.find((span) => span.attributeValues['gateway.request.id'] === requestId);
      spans = root ? receiver.spans.filter((span) => span.traceId === root.traceId) : [];
      return spans.length > 0 && complete(spans);
    }, 15_000);
    return spans;
  }

  /** The root, then its hold, attempts and settlement, each a direct child of the root. */
  function synchronousTree(spans: ReceivedSpan[]) {
    const roots = spans.filter((span) => (span.parentSpanId ?? '') === '');
    expect(roots).toHaveLength(1);
    const [root] = roots;
    expect(root.service).toBe('gateway');
    const children = (name: string) => spans.filter((span) => span.name === name);
    for (const span of spans.filter((span) => span !== root)) {
      expect({ name: span.name, parent: span.parentSpanId }).toEqual({
        name: span.name,
        parent: root.spanId,
      });
    }
    return {
      root,
      holds: children('hold'),
      attempts: children('upstream attempt'),
      settlements: children('settlement'),
    };
  }

  const settled = (spans: ReceivedSpan[]) => spans.some((span) => span.name === 'settlement');

  /** No attribute of these spans names or holds a key, a secret, a prompt or a payload. */
  function expectNothingSecret(spans: ReceivedSpan[], secrets: string[]): void {
    const names = spans.flatMap((span) => Object.keys(span.attributeValues));
    expect(names.filter((name) => FORBIDDEN_ATTRIBUTE_NAME.test(name))).toEqual([]);
    const values = spans.flatMap((span) => Object.values(span.attributeValues));
    expect(values.filter((value) => secrets.some((secret) => value.includes(secret)))).toEqual([]);
  }

  beforeAll(async () => {
    [database, simulator] = await Promise.all([createTestDatabase(), startSimulator()]);
    apps = BuiltApps.build();
    const receiverUrl = await receiver.listen();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const shared = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: `test-tracing-${randomBytes(4).toString('hex')}`,
      MASTER_KEY: masterKey,
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE_MS: '1000',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl,
      OBJECT_STORE_DIR: objectStoreDir,
    };
    gateway = apps.start('gateway', {
      ...shared,
      ADMIN_TOKEN: adminToken,
      PORT: String(port),
      HOST: '127.0.0.1',
    });
    worker = apps.start('worker-video', {
      ...shared,
      ADMIN_API_ENABLED: 'false',
      TASK_MIN_POLL_DELAY_MS: '100',
      TASK_MAX_POLL_DELAY_MS: '200',
    });
    imageWorker = apps.start('worker-image', {
      ...shared,
      ADMIN_API_ENABLED: 'false',
      SSRF_ALLOW_HOSTS: `127.0.0.1,${new URL(simulator.url).host}`,
    });
    await untilListening(url, gateway);
    ({ key, channelId } = await seedVideoOverAdminApi(url, adminToken, simulator.url));
    channels = await seedSynchronousChannels(url, adminToken, simulator.url);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.kill(), worker?.kill(), imageWorker?.kill()]);
    await Promise.all([simulator?.close(), database?.drop(), receiver.close()]);
    rmSync(objectStoreDir, { recursive: true, force: true });
    apps?.remove();
  });

  it.each<[TextCallKind, 'kappa' | 'compat']>([
    ['native', 'kappa'],
    ['native-stream', 'kappa'],
    ['openai', 'compat'],
    ['openai-stream', 'compat'],
  ])(
    'traces the %s text request: its hold, its one attempt and its settlement under the request',
    async (kind, type) => {
      const answer = await sendTextCall(url, key, kind, TEXT_PROMPT);
      expect(answer.status).toBe(200);

      const spans = await traceOfRequest(answer.requestId, settled);
      const { root, holds, attempts, settlements } = synchronousTree(spans);
      expect(root.name).toBe(
        kind.startsWith('native') ? 'POST /v1beta/models/:modelAction' : 'POST /v1/chat/completions',
      );
      expect(root.attributeValues['http.response.status_code']).toBe('200');
      expect(holds.map((hold) => hold.attributeValues)).toEqual([
        {
          'gateway.model': type === 'kappa' ? 'kappa-2.0-flash' : 'chat-fast',
          'gateway.hold.style': 'leased',
          'gateway.hold.outcome': 'taken',
        },
      ]);
      expect(attempts.map((attempt) => attempt.attributeValues)).toEqual([
        {
          'gateway.channel.id': channels[type],
          'gateway.channel.type': type,
          'gateway.upstream.model': type === 'kappa' ? 'kappa-2.0-flash' : 'chat-fast',
          'gateway.upstream.outcome': 'answered',
        },
      ]);
      expect(settlements.map((settlement) => settlement.attributeValues)).toEqual([
        expect.objectContaining({
          'gateway.model': type === 'kappa' ? 'kappa-2.0-flash' : 'chat-fast',
          'gateway.request.end_reason': 'completed',
          'gateway.settlement.outcome': 'written',
        }),
      ]);
      expect(Number(settlements[0].attributeValues['gateway.settlement.batch_size'])).toBeGreaterThanOrEqual(
        1,
      );
      expectNothingSecret(spans, [key, adminToken, masterKey, KAPPA_SECRET, CHANNEL_SECRET, TEXT_PROMPT]);
    },
  );

  it('traces an image request: a row hold, the attempt on the image channel, the settlement', async () => {
    const response = await fetch(`${url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'img-1', prompt: IMAGE_PROMPT, response_format: 'b64_json' }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Array<{ b64_json?: string }> };
    const image = data[0]?.b64_json ?? '';
    expect(image.length).toBeGreaterThan(100);

    const spans = await traceOfRequest(response.headers.get('x-request-id') ?? '', settled);
    const { root, holds, attempts, settlements } = synchronousTree(spans);
    expect(root.name).toBe('POST /v1/images/generations');
    expect(holds.map((hold) => hold.attributeValues)).toEqual([
      { 'gateway.model': 'img-1', 'gateway.hold.style': 'row', 'gateway.hold.outcome': 'taken' },
    ]);
    expect(attempts.map((attempt) => attempt.attributeValues)).toEqual([
      {
        'gateway.channel.id': channels.image,
        'gateway.channel.type': 'compat',
        'gateway.upstream.model': 'img-1',
        'gateway.upstream.outcome': 'answered',
      },
    ]);
    expect(settlements).toHaveLength(1);
    expect(settlements[0].attributeValues).toMatchObject({
      'gateway.model': 'img-1',
      'gateway.settlement.outcome': 'written',
    });
    // The image's bytes (a payload) are nowhere in the export: not even their first hundred characters.
    expectNothingSecret(spans, [key, CHANNEL_SECRET, IMAGE_PROMPT, image.slice(0, 100)]);
    expect(receiver.bodies.join('\n')).not.toContain(image.slice(0, 100));
  });

  it('traces a refused hold: the hold span fails with the refusal’s code, and nothing is attempted or settled', async () => {
    const brokeKey = await keyWithoutCredit(url, adminToken);
    const answer = await sendTextCall(url, brokeKey, 'openai', TEXT_PROMPT);
    expect(answer.status).toBe(402);

    const spans = await traceOfRequest(answer.requestId, (trace) =>
      trace.some((span) => span.name === 'hold'),
    );
    const { root, holds, attempts, settlements } = synchronousTree(spans);
    expect(root.attributeValues['http.response.status_code']).toBe('402');
    expect(holds).toHaveLength(1);
    expect(holds[0].attributeValues).toEqual({
      'gateway.model': 'chat-fast',
      'gateway.hold.style': 'leased',
      'gateway.failure.kind': 'insufficient_balance',
    });
    expect(holds[0].status?.code).toBe(2);
    expect([...attempts, ...settlements]).toEqual([]);
    expectNothingSecret(spans, [brokeKey, TEXT_PROMPT]);
  });

  it('traces a failover: the failing attempt with its kind and status, then the one that answered', async () => {
    const response = await fetch(`${url}/v1beta/models/${FAILOVER_MODEL}:generateContent`, {
      method: 'POST',
      headers: { 'x-vendor-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: TEXT_PROMPT }] }] }),
    });
    expect(response.status).toBe(200);

    const spans = await traceOfRequest(response.headers.get('x-request-id') ?? '', settled);
    const { holds, attempts, settlements } = synchronousTree(spans);
    expect(holds).toHaveLength(1);
    expect(settlements).toHaveLength(1);
    const [failed, answered] = [...attempts].sort((a, b) =>
      Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)),
    );
    expect(attempts).toHaveLength(2);
    expect(failed.attributeValues).toEqual({
      'gateway.channel.id': channels.failing,
      'gateway.channel.type': 'kappa',
      'gateway.upstream.model': 'kappa-2.0-flash',
      'gateway.upstream.outcome': 'failed',
      'gateway.upstream.status': '503',
      'gateway.failure.kind': 'overload',
      'error.type': 'UpstreamError',
    });
    expect(failed.status?.code).toBe(2);
    expect(answered.attributeValues).toEqual({
      'gateway.channel.id': channels.fallback,
      'gateway.channel.type': 'compat',
      'gateway.upstream.model': 'chat-fast',
      'gateway.upstream.outcome': 'answered',
    });
    expectNothingSecret(spans, [key, KAPPA_SECRET, CHANNEL_SECRET, TEXT_PROMPT]);
  });

  it('follows a video task in one trace from the gateway’s request through the queue to the worker’s settlement', async () => {
    const created = await fetch(`${url}/v1/videos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'delta-2', prompt: PROMPT, seconds: '4' }),
    });
    expect(created.status).toBe(200);
    const { id: videoId } = (await created.json()) as { id: string };
    let status = '';
    await waitFor(async () => {
      const video = await fetch(`${url}/v1/videos/${videoId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      status = ((await video.json()) as { status: string }).status;
      return ['completed', 'failed'].includes(status);
    }, 60_000);
    expect(status).toBe('completed');
    // An image job, made by worker-image: its settlement is traced as a video's is.
    const job = await fetch(`${url}/v1/images/generations`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        prefer: 'respond-async',
      },
      body: JSON.stringify({ model: 'img-1', prompt: IMAGE_PROMPT, response_format: 'b64_json' }),
    });
    expect(job.status).toBe(202);
    const { id: jobId } = (await job.json()) as { id: string };
    let jobStatus = '';
    await waitFor(async () => {
      const polled = await fetch(`${url}/v1/images/generations/${jobId}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      jobStatus = ((await polled.json()) as { status: string }).status;
      return ['completed', 'failed'].includes(jobStatus);
    }, 60_000);
    expect(jobStatus).toBe('completed');

    // The processes flush what they buffered when they stop.
    gateway.signal('SIGTERM');
    worker.signal('SIGTERM');
    imageWorker.signal('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await imageWorker.exited).toEqual({ code: 0, signal: null });

    const create = receiver.spans.find(
      (span) =>
        span.name === 'POST /v1/videos' && span.attributeValues['http.response.status_code'] === '200',
    );
    expect(create).toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === create?.traceId);
    const byName = (name: string) => trace.filter((span) => span.name === name);

    const [request] = byName('POST /v1/videos');
    expect(request.service).toBe('gateway');
    // The creation's hold is a span of the request, as a synchronous request's is.
    expect(byName('hold').map((hold) => [hold.parentSpanId, hold.attributeValues])).toEqual([
      [
        request.spanId,
        { 'gateway.model': 'delta-2', 'gateway.hold.style': 'row', 'gateway.hold.outcome': 'taken' },
      ],
    ]);
    // The root of its trace: no parent (a client's own trace headers are not joined).
    expect(request.parentSpanId ?? '').toBe('');
    expect(request.attributeValues).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/videos',
    });

    // The worker's steps continue the request's trace from the job's traceparent.
    const steps = byName('task step');
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const step of steps)
      expect(step).toMatchObject({ service: 'worker-video', parentSpanId: request.spanId });
    const stepIds = new Set(steps.map((step) => step.spanId));

    const [submit] = byName('upstream submit');
    expect(stepIds.has(submit.parentSpanId ?? '')).toBe(true);
    expect(submit.attributeValues).toMatchObject({
      'gateway.channel.id': channelId,
      'gateway.channel.type': 'compat',
      'gateway.upstream.outcome': 'submitted',
    });
    const polls = byName('upstream poll');
    expect(polls.map((poll) => poll.attributeValues['gateway.upstream.outcome'])).toContain('completed');
    for (const poll of polls) expect(poll.attributeValues['gateway.channel.id']).toBe(channelId);

    const [settlement] = byName('task settlement');
    expect(stepIds.has(settlement.parentSpanId ?? '')).toBe(true);
    expect(settlement.attributeValues).toMatchObject({
      'gateway.model': 'delta-2',
      'gateway.task.outcome': 'completed',
    });

    const jobCreate = receiver.spans.find(
      (span) =>
        span.name === 'POST /v1/images/generations' &&
        span.attributeValues['http.response.status_code'] === '202',
    );
    expect(jobCreate).toBeDefined();
    const jobTrace = receiver.spans.filter((span) => span.traceId === jobCreate?.traceId);
    const jobStepIds = new Set(
      jobTrace
        .filter((span) => span.name === 'task step' && span.service === 'worker-image')
        .map((span) => span.spanId),
    );
    const jobSettlements = jobTrace.filter((span) => span.name === 'task settlement');
    expect(jobSettlements.map((span) => [span.service, jobStepIds.has(span.parentSpanId ?? '')])).toEqual([
      ['worker-image', true],
    ]);
    expect(jobSettlements[0].attributeValues).toMatchObject({
      'gateway.model': 'img-1',
      'gateway.task.kind': 'image',
      'gateway.task.outcome': 'completed',
    });

    // The status queries are traces of their own: one trace per request.
    const queries = receiver.spans.filter((span) => /^GET \/v1\/videos\/:\w+$/.test(span.name));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((query) => query.traceId !== request.traceId)).toBe(true);

    // No key, secret, token or payload anywhere in what left the processes.
    const exported = receiver.bodies.join('\n');
    const secrets = {
      'inference key': key,
      'admin token': adminToken,
      'master key': masterKey,
      'channel secret': CHANNEL_SECRET,
      'kappa channel secret': KAPPA_SECRET,
      prompt: PROMPT,
      'text prompt': TEXT_PROMPT,
      'image prompt': IMAGE_PROMPT,
    };
    expect(
      Object.entries(secrets)
        .filter(([, secret]) => exported.includes(secret))
        .map(([name]) => name),
    ).toEqual([]);
    const names = receiver.spans.flatMap((span) => Object.keys(span.attributeValues));
    expect(names.filter((name) => FORBIDDEN_ATTRIBUTE_NAME.test(name))).toEqual([]);
  }, 120_000);
});

/** A compat channel on the simulator for delta-2, its price, an account with credit and a key. */
async function seedVideoOverAdminApi(
  url: string,
  adminToken: string,
  simulatorUrl: string,
): Promise<{ key: string; channelId: string }> {
  const admin = <T>(method: string, path: string, body: unknown) =>
    adminRequest<T>(url, adminToken, method, path, body);
  await admin('PUT', '/admin/prices', {
    prices: [{ model: 'delta-2', perCall: '1000', perVideoSecond: { default: '5000' } }],
  });
  const channel = await admin<{ id: string }>('POST', '/admin/channels', {
    type: 'compat',
    name: 'compat-videos-traced',
    baseUrl: simulatorUrl,
    secret: CHANNEL_SECRET,
    models: [{ model: 'delta-2' }],
    priority: 0,
    weight: 1,
  });
  const account = await admin<{ id: string }>('POST', '/admin/accounts', {
    name: 'traced',
    overdraftLimitMicros: '0',
  });
  await admin('POST', `/admin/accounts/${account.id}/credits`, {
    amountMicros: '1000000000',
    idempotencyKey: `credit-${account.id}`,
  });
  const created = await admin<{ key: string }>('POST', '/admin/keys', {
    accountId: account.id,
    name: 'traced key',
  });
  return { key: created.key, channelId: channel.id };
}

/** A key of a new account that has no credit (and no overdraft): every hold it asks for is refused. */
async function keyWithoutCredit(url: string, adminToken: string): Promise<string> {
  const admin = <T>(path: string, body: unknown) => adminRequest<T>(url, adminToken, 'POST', path, body);
  const account = await admin<{ id: string }>('/admin/accounts', {
    name: 'broke',
    overdraftLimitMicros: '0',
  });
  return (await admin<{ key: string }>('/admin/keys', { accountId: account.id, name: 'broke key' })).key;
}

/** The synchronous channels' ids: the text channels of both wires, the image channel, the failover pair. */
interface SyncChannels {
  kappa: string;
  compat: string;
  image: string;
  failing: string;
  fallback: string;
}

/**
 * Text channels for the two models the text-call client sends (kappa-2.0-flash on the kappa wire,
 * chat-fast on the compat wire), an image channel for img-1, and for the failover model a kappa channel
 * that answers 503 (overload) ahead of a compat channel that answers; their prices.
 */
async function seedSynchronousChannels(
  url: string,
  adminToken: string,
  simulatorUrl: string,
): Promise<SyncChannels> {
  const admin = <T>(method: string, path: string, body: unknown) =>
    adminRequest<T>(url, adminToken, method, path, body);
  const tokens = { inputPerMillion: '1000', outputPerMillion: '2000' };
  await admin('PUT', '/admin/prices', {
    prices: [
      { model: 'kappa-2.0-flash', ...tokens },
      { model: 'chat-fast', ...tokens },
      { model: FAILOVER_MODEL, ...tokens },
      { model: 'img-1', perImage: { default: '40000' } },
    ],
  });
  const channel = async (body: Record<string, unknown>) =>
    (
      await admin<{ id: string }>('POST', '/admin/channels', {
        priority: 0,
        weight: 1,
        baseUrl: simulatorUrl,
        ...body,
      })
    ).id;
  return {
    kappa: await channel({
      type: 'kappa',
      name: 'kappa-text-traced',
      secret: KAPPA_SECRET,
      models: [{ model: 'kappa-2.0-flash' }],
    }),
    compat: await channel({
      type: 'compat',
      name: 'compat-text-traced',
      secret: CHANNEL_SECRET,
      models: [{ model: 'chat-fast' }],
    }),
    image: await channel({
      type: 'compat',
      name: 'compat-images-traced',
      secret: CHANNEL_SECRET,
      models: [{ model: 'img-1' }],
    }),
    failing: await channel({
      type: 'kappa',
      name: 'kappa-failing-traced',
      baseUrl: `${simulatorUrl}/@error=overload;status=503`,
      secret: KAPPA_SECRET,
      models: [{ model: FAILOVER_MODEL, upstreamModel: 'kappa-2.0-flash' }],
      priority: 10,
    }),
    fallback: await channel({
      type: 'compat',
      name: 'compat-fallback-traced',
      secret: CHANNEL_SECRET,
      models: [{ model: FAILOVER_MODEL, upstreamModel: 'chat-fast' }],
    }),
  };
}
