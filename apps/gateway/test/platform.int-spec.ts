import { once } from 'node:events';
import { connect } from 'node:net';
import { GatewayHarness, type GatewayInstance, type TextDemo } from './gateway-harness';

describe('operations: health, readiness, metrics, docs, request ids, graceful shutdown', () => {
  let harness: GatewayHarness;
  let demo: TextDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start();
    demo = await harness.seedTextDemo();
  });
  afterAll(() => harness.close());

  it('answers /healthz and /readyz with the state of Postgres and Redis', async () => {
    expect((await harness.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await harness.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('exposes Prometheus metrics: requests by route and status, latency histograms, queue depths', async () => {
    await harness.request('POST', '/v1/chat/completions', {
      body: { model: 'chat-fast', messages: [{ role: 'user', content: 'hi' }] },
      headers: { authorization: `Bearer ${demo.key}` },
    });
    const metrics = await harness.request('GET', '/metrics');
    expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
    expect(metrics.text).toMatch(
      /gateway_http_requests_total\{route="\/v1\/chat\/completions",method="POST",status="200"\} 1/,
    );
    expect(metrics.text).toMatch(
      /gateway_http_request_duration_seconds_bucket\{le="0\.005",route="\/v1\/chat\/completions"/,
    );
    expect(metrics.text).toMatch(/gateway_queue_jobs\{queue="text-settlement",state="waiting"\} 0/);
    expect(metrics.text).toMatch(/gateway_queue_jobs\{queue="video-tasks",state="delayed"\} 0/);
  });

  it('counts a streamed answer once, and each answered upstream attempt once, whole or streamed', async () => {
    const counts = async () => {
      const { text } = await harness.request('GET', '/metrics');
      const nativeRoute =
        /gateway_http_requests_total\{route="\/v1beta\/models\/:modelAction",method="POST",status="200"\} (\d+)/;
      const attempts = [...text.matchAll(/gateway_upstream_duration_seconds_count\{[^}]*\} (\d+)/g)];
      return {
        nativeRequests: Number(nativeRoute.exec(text)?.[1] ?? 0),
        upstreamAttempts: attempts.reduce((sum, match) => sum + Number(match[1]), 0),
      };
    };
    const body = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const headers = { 'x-vendor-api-key': demo.key };
    const before = await counts();

    const stream = await harness.request(
      'POST',
      '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse',
      { body, headers },
    );
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('"finishReason"');
    expect(await counts()).toEqual({
      nativeRequests: before.nativeRequests + 1,
      upstreamAttempts: before.upstreamAttempts + 1,
    });

    const whole = await harness.request('POST', '/v1beta/models/kappa-2.0-flash:generateContent', {
      body,
      headers,
    });
    expect(whole.status).toBe(200);
    expect(await counts()).toEqual({
      nativeRequests: before.nativeRequests + 2,
      upstreamAttempts: before.upstreamAttempts + 2,
    });
  });

  it('publishes an OpenAPI document generated from the DTOs, with Swagger UI at /docs', async () => {
    const document = await harness.request<{
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    }>('GET', '/docs/openapi.json');
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/chat/completions',
        '/v1beta/models/{model}:generateContent',
        '/v1beta/models/{model}:streamGenerateContent',
        '/admin/channels',
        '/admin/keys',
        '/admin/accounts/{id}/credits',
        '/admin/prices',
        '/admin/logs',
        '/admin/usage',
      ]),
    );
    const nativeGenerate = (
      document.body.paths['/v1beta/models/{model}:streamGenerateContent'] as {
        post: { parameters: { name: string; in: string }[] };
      }
    ).post;
    expect(nativeGenerate.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'model', in: 'path' }),
        expect.objectContaining({ name: 'alt', in: 'query' }),
      ]),
    );
    expect(Object.keys(document.body.components.schemas)).toEqual(
      expect.arrayContaining([
        'ChatCompletionRequestDto',
        'NativeGenerateRequestDto',
        'CreateChannelDto',
        'ChannelView',
      ]),
    );
    const ui = await harness.request('GET', '/docs');
    expect(ui.status).toBe(200);
    expect(ui.text).toMatch(/swagger/i);
  });

  it('returns its own request id on every response, echoing a sane one the client sent', async () => {
    const own = await harness.request('GET', '/healthz', { headers: { 'x-request-id': 'client-id-123' } });
    expect(own.headers.get('x-request-id')).toMatch(/^req_/);
    expect(own.headers.get('x-client-request-id')).toBe('client-id-123');
    const again = await harness.request('GET', '/healthz', { headers: { 'x-request-id': 'client-id-123' } });
    expect(again.headers.get('x-request-id')).not.toBe(own.headers.get('x-request-id'));
    const insane = await harness.request('GET', '/healthz', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(insane.headers.get('x-request-id')).toMatch(/^req_/);
    expect(insane.headers.get('x-client-request-id')).toBeNull();
    const unknownRoute = await harness.request<{ error: { message: string } }>('GET', '/v1/nothing-here', {
      headers: { authorization: `Bearer ${demo.key}` },
    });
    expect(unknownRoute.status).toBe(404);
    expect(unknownRoute.headers.get('x-request-id')).toMatch(/^req_/);
    expect(unknownRoute.body.error.message).toMatch(/No route/);
  });

  /** A chat call its upstream answers after `latencyMs`, to `instance`, whose close starts 150 ms into it. */
  async function closedDuringCall(instance: GatewayInstance, latencyMs: number) {
    const inFlight = harness.request<{ choices: unknown[] }>('POST', '/v1/chat/completions', {
      body: {
        model: 'chat-fast',
        messages: [{ role: 'user', content: `slow [[sim latency=${latencyMs}]]` }],
      },
      headers: { authorization: `Bearer ${demo.key}` },
      baseUrl: instance.url,
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const closed = instance.close();
    return { answer: await inFlight, closed };
  }

  it('lets an in-flight request finish on shutdown, and refuses new connections after', async () => {
    const instance = await harness.startInstance();
    const { answer, closed } = await closedDuringCall(instance, 700);
    expect(answer.status).toBe(200);
    expect(answer.body.choices).toHaveLength(1);
    await closed;
    await expect(fetch(`${instance.url}/healthz`)).rejects.toThrow();
  });

  it('closes a connection that never sent a byte at shutdown, which Node’s close would wait on', async () => {
    // A grace longer than Jest's timeout: Node counts the silent connection as busy, so without the
    // gateway closing it the close waits on it until then.
    const instance = await harness.startInstance({ shutdownGraceMs: 60_000 });
    const silent = connect(Number(new URL(instance.url).port), '127.0.0.1');
    await once(silent, 'connect');
    const received: Buffer[] = [];
    silent.on('data', (chunk: Buffer) => received.push(chunk));
    silent.on('error', () => undefined);
    const silentClosed = once(silent, 'close');
    const { answer, closed } = await closedDuringCall(instance, 1_500);
    expect(answer.status).toBe(200);
    await closed;
    await silentClosed;
    expect(Buffer.concat(received).toString()).toBe('');
  });
});
