import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayHarness, type GatewayInstance } from './gateway-harness';
import { imageHarnessEnv, pngOf, seedImageDemo, type ImageDemo } from './image-demo';

interface ImageAnswer {
  data?: Array<{ b64_json?: string; url?: string }>;
  error?: { message: string; type: string; code: string };
}

/** A loopback HTTP server that counts what reaches it. */
interface CountingServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function startCountingServer(
  answer: (path: string) => { status: number; headers: Record<string, string>; body?: Buffer },
): Promise<CountingServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(request.url ?? '');
    const { status, headers, body } = answer(request.url ?? '');
    response.writeHead(status, headers).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Every URL the gateway itself downloads (an upstream's result, to answer Base64 or to store it) goes
 * through the SSRF-safe fetcher. A stub upstream on the compat wire answers with whatever URL the
 * prompt names, so each test hands the gateway one hostile URL; a trap server counts whether the
 * gateway ever connected to it.
 */
describe('SSRF: result URLs the gateway downloads', () => {
  let harness: GatewayHarness;
  let trap: CountingServer;
  let redirector: CountingServer;
  let upstream: { port: number; close(): Promise<void> };
  let demo: ImageDemo;

  beforeAll(async () => {
    harness = await GatewayHarness.start(imageHarnessEnv());
    trap = await startCountingServer(() => ({
      status: 200,
      headers: { 'content-type': 'image/png' },
      body: pngOf(8, 8),
    }));
    redirector = await startCountingServer(() => ({
      status: 302,
      headers: { location: `http://127.0.0.1:${trap.port}/redirected.png` },
    }));
    upstream = await startEchoUpstream();
    demo = await seedImageDemo(harness, 1_000_000n, { baseUrl: `http://127.0.0.1:${upstream.port}` });
  });
  afterAll(async () => {
    await harness.close();
    await Promise.all([trap.close(), redirector.close(), upstream.close()]);
  });

  async function generate(gateway: GatewayInstance | undefined, resultUrl: string, format = 'b64_json') {
    return harness.request<ImageAnswer>('POST', '/v1/images/generations', {
      body: { model: 'zeta-4-2-image', prompt: resultUrl, response_format: format },
      headers: { authorization: `Bearer ${demo.key}` },
      baseUrl: gateway?.url,
    });
  }

  function refusalLogged(requestId: string | null): boolean {
    return harness.logs.some(
      (line) => line.includes(`"requestId":"${requestId}"`) && line.includes('forbidden_address'),
    );
  }

  it.each([
    ['loopback', () => `http://127.0.0.1:${trap.port}/direct.png`],
    ['a name that resolves to 127.0.0.1', () => `http://localhost:${trap.port}/by-name.png`],
    ['IPv6 loopback', () => `http://[::1]:${trap.port}/v6.png`],
    ['a private range', () => 'http://10.0.0.7/private.png'],
    ['another private range', () => 'http://192.168.1.20/private.png'],
    ['link-local (the metadata address)', () => 'http://169.254.169.254/latest/meta-data/'],
    ['IPv6 link-local', () => 'http://[fe80::1]/link-local.png'],
    ['an IPv4-mapped IPv6 loopback', () => `http://[::ffff:127.0.0.1]:${trap.port}/mapped.png`],
  ])(
    'refuses %s without fetching it, for Base64 and for URL answers, charging nothing',
    async (_name, urlOf) => {
      for (const format of ['b64_json', 'url']) {
        const answer = await generate(undefined, urlOf(), format);
        expect(answer.status).toBe(503);
        expect(answer.body.error?.message).toMatch(/could not be retrieved; nothing was charged/);
        expect(refusalLogged(answer.headers.get('x-request-id'))).toBe(true);
      }
      expect(trap.hits).toEqual([]);
    },
  );

  it('refuses a redirect to a loopback address, even from a host the operator allowed', async () => {
    const gateway = await harness.startInstance({ ssrfAllowHosts: [`127.0.0.1:${redirector.port}`] });
    const answer = await generate(gateway, `http://127.0.0.1:${redirector.port}/start.png`);
    expect(answer.status).toBe(503);
    expect(redirector.hits).toEqual(['/start.png']);
    expect(trap.hits).toEqual([]);
    expect(refusalLogged(answer.headers.get('x-request-id'))).toBe(true);
  });

  it('fetches the same trap once the operator allows its exact host and port (the control)', async () => {
    const gateway = await harness.startInstance({ ssrfAllowHosts: [`127.0.0.1:${trap.port}`] });
    const answer = await generate(gateway, `http://127.0.0.1:${trap.port}/allowed.png`);
    expect(answer.status).toBe(200);
    expect(answer.body.data?.[0].b64_json).toBe(pngOf(8, 8).toString('base64'));
    expect(trap.hits).toEqual(['/allowed.png']);
  });

  it('charged nothing for the refused downloads', async () => {
    await harness.settled();
    const captures = await harness.query<{ total: string }>(
      "select coalesce(sum(amount), 0)::text as total from ledger_entries where account_id = $1 and kind = 'capture'",
      [demo.accountId],
    );
    // Only the control's one image was delivered and charged.
    expect(captures[0].total).toBe('40000');
  });
});

/** The compat images wire (upstreams.md §2.3), answering every generation with the URL its prompt is. */
async function startEchoUpstream(): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { prompt } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { prompt: string };
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ created: 1_735_689_600, data: [{ url: prompt }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
