import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { startSimulator, type RunningSimulator } from '@gateway/simulators';
import { createTestDatabase, waitFor, type TestDatabase } from '@gateway/testing';
import { BuiltApps, freePort, untilListening, type AppProcess } from './app-processes';

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
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The key the simulator's compat wire accepts. */
const CHANNEL_SECRET = 'sim-compat-key';

/**
 * The production build of the gateway and of worker-video, each its own process exporting to the
 * receiver in this one: the trace has to cross the queue (the job's traceparent) and two processes.
 * (In Jest's module system the exporter cannot load its HTTP transport, a dynamic import: another
 * reason to trace the real processes.)
 */
describe('tracing (OTLP over HTTP, gateway and worker-video processes)', () => {
  const receiver = new OtlpReceiver();
  let database: TestDatabase;
  let simulator: RunningSimulator;
  let apps: BuiltApps;
  let gateway: AppProcess;
  let worker: AppProcess;
  let url: string;
  const adminToken = randomBytes(24).toString('hex');
  const masterKey = randomBytes(32).toString('hex');
  let key = '';
  let channelId = '';

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
    await untilListening(url, gateway);
    ({ key, channelId } = await seedVideoOverAdminApi(url, adminToken, simulator.url));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.kill(), worker?.kill()]);
    await Promise.all([simulator?.close(), database?.drop(), receiver.close()]);
    apps?.remove();
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

    // Both processes flush what they buffered when they stop.
    gateway.signal('SIGTERM');
    worker.signal('SIGTERM');
    expect(await gateway.exited).toEqual({ code: 0, signal: null });
    expect(await worker.exited).toEqual({ code: 0, signal: null });

    const create = receiver.spans.find(
      (span) =>
        span.name === 'POST /v1/videos' && span.attributeValues['http.response.status_code'] === '200',
    );
    expect(create).toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === create?.traceId);
    const byName = (name: string) => trace.filter((span) => span.name === name);

    const [request] = byName('POST /v1/videos');
    expect(request.service).toBe('gateway');
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
      prompt: PROMPT,
    };
    expect(
      Object.entries(secrets)
        .filter(([, secret]) => exported.includes(secret))
        .map(([name]) => name),
    ).toEqual([]);
    const names = receiver.spans.flatMap((span) => Object.keys(span.attributeValues));
    expect(names.filter((name) => /key|secret|token|prompt|authorization|body/i.test(name))).toEqual([]);
  }, 120_000);
});

/** A compat channel on the simulator for delta-2, its price, an account with credit and a key. */
async function seedVideoOverAdminApi(
  url: string,
  adminToken: string,
  simulatorUrl: string,
): Promise<{ key: string; channelId: string }> {
  const admin = async <T>(method: string, path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status >= 300)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
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
