import { startRecordedUpstream, type RecordedUpstream } from '../testing/recorded-upstream.server';
import { SafeFetchError } from './safe-fetch-error';
import { createSafeFetcher, type ResolvedAddress, type SafeFetcherOptions } from './safe-fetcher';

async function readAll(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString();
}

async function fetchFailure(promise: Promise<unknown>): Promise<SafeFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SafeFetchError) return error;
    throw error;
  }
  throw new Error('expected the fetch to be refused');
}

describe('createSafeFetcher', () => {
  let target: RecordedUpstream;
  let other: RecordedUpstream;
  let targetHost: string;

  const fetcherFor = (options: Partial<SafeFetcherOptions>) =>
    createSafeFetcher({ maxBytes: 1024, timeoutMs: 2_000, maxRedirects: 3, ...options });

  beforeEach(async () => {
    other = await startRecordedUpstream({ 'GET /secret': { status: 200, body: 'internal secret' } });
    target = await startRecordedUpstream({
      'GET /image.png': { status: 200, headers: { 'content-type': 'image/png' }, body: 'png-bytes' },
      'GET /to-other': { status: 302, headers: { location: `${other.baseUrl}/secret` } },
      'GET /to-localhost': {
        status: 302,
        headers: { location: `http://localhost:${new URL(other.baseUrl).port}/secret` },
      },
      'GET /to-image': { status: 301, headers: { location: '/image.png' } },
      'GET /loop': { status: 307, headers: { location: '/loop' } },
      'GET /big-declared': { status: 200, headers: { 'content-length': '2048' }, body: 'x'.repeat(2048) },
      'GET /big-chunked': { status: 200, body: ['x'.repeat(600), 'x'.repeat(600)], pauseMs: 5 },
      'GET /silent': { status: 200, silent: true },
      'GET /partial': {
        status: 206,
        headers: { 'content-range': 'bytes 0-3/9', 'content-type': 'video/mp4' },
        body: 'part',
      },
      'GET /to-partial': { status: 302, headers: { location: '/partial' } },
      'GET /slow-body': { status: 200, body: ['late', '-bytes'], pauseMs: 300 },
      'GET /open-body': { status: 200, body: 'first', holdOpen: true },
      'POST /hook': { status: 204 },
      'POST /hook-moved': { status: 307, headers: { location: `${other.baseUrl}/secret` } },
    });
    targetHost = new URL(target.baseUrl).host;
  });

  afterEach(async () => {
    await target.close();
    await other.close();
  });

  it.each([
    ['loopback IPv4', 'http://127.0.0.1:9/x'],
    ['loopback IPv6', 'http://[::1]:9/x'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:9/x'],
    ['a numeric loopback host', 'http://2130706433:9/x'],
    ['the metadata endpoint', 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', 'https://10.0.0.1/x'],
    ['a name resolving to loopback', 'http://localhost:9/x'],
  ])('refuses %s', async (_, url) => {
    expect((await fetchFailure(fetcherFor({}).fetch(url))).code).toBe('forbidden_address');
  });

  it('refuses a name when any of its addresses is internal', async () => {
    const fetcher = fetcherFor({
      resolveHost: async () => [
        { address: '93.184.215.14', family: 4 },
        { address: '10.0.0.3', family: 4 },
      ],
    });
    expect((await fetchFailure(fetcher.fetch('http://mixed.test/x'))).code).toBe('forbidden_address');
  });

  it.each([
    ['a non-http scheme', 'file:///etc/passwd'],
    ['a relative URL', '/image.png'],
    ['a URL with credentials', 'http://user:pass@93.184.215.14/x'],
  ])('refuses %s as an invalid URL', async (_, url) => {
    expect((await fetchFailure(fetcherFor({}).fetch(url))).code).toBe('invalid_url');
  });

  it('fetches an allow-listed host and sends none of the caller’s credentials', async () => {
    const response = await fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(
      `${target.baseUrl}/image.png`,
    );
    expect(response.status).toBe(200);
    expect(response.contentType).toBe('image/png');
    await expect(readAll(response.body)).resolves.toBe('png-bytes');
    const headers = target.requests[0].headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(Object.keys(headers).sort()).toEqual(['accept', 'connection', 'host', 'user-agent']);
  });

  it('POSTs the gateway’s own body and headers, and returns a redirect unfollowed', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost, new URL(other.baseUrl).host] });
    const post = {
      body: '{"id":"evt_1"}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
    };
    expect((await fetcher.fetch(`${target.baseUrl}/hook`, { post })).status).toBe(204);
    expect(target.requests[0].method).toBe('POST');
    expect(target.requests[0].body.toString()).toBe('{"id":"evt_1"}');
    expect(target.requests[0].headers['webhook-id']).toBe('msg_1');
    expect((await fetcher.fetch(`${target.baseUrl}/hook-moved`, { post })).status).toBe(307);
    expect(other.requests).toHaveLength(0);
  });

  it.each([
    ['a header that would replace the fetcher’s own', { 'user-agent': 'x' }],
    ['a header value with a line break', { 'webhook-id': 'a\r\nx-injected: 1' }],
    ['a header name that is not a token', { 'webhook id': 'a' }],
  ])('refuses to POST %s', async (_, headers) => {
    const post = { body: '{}', headers };
    const failure = await fetchFailure(
      fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(`${target.baseUrl}/hook`, { post }),
    );
    expect(failure.code).toBe('invalid_header');
    expect(target.requests).toHaveLength(0);
  });

  it('fetches addresses inside an allow-listed CIDR block', async () => {
    const response = await fetcherFor({ allowPrivateHosts: ['127.0.0.0/8'] }).fetch(
      `${target.baseUrl}/image.png`,
    );
    await expect(readAll(response.body)).resolves.toBe('png-bytes');
  });

  it('resolves a name once and connects to the checked address', async () => {
    const lookups: string[] = [];
    const resolveHost = async (hostname: string): Promise<ResolvedAddress[]> => {
      lookups.push(hostname);
      // A rebinding resolver: a second lookup would answer with another address.
      return lookups.length === 1
        ? [{ address: '127.0.0.1', family: 4 }]
        : [{ address: '10.0.0.1', family: 4 }];
    };
    const port = new URL(target.baseUrl).port;
    const fetcher = fetcherFor({ allowPrivateHosts: [`assets.test:${port}`], resolveHost });
    const response = await fetcher.fetch(`http://assets.test:${port}/image.png`);
    await expect(readAll(response.body)).resolves.toBe('png-bytes');
    expect(lookups).toEqual(['assets.test']);
    expect(target.requests[0].headers.host).toBe(`assets.test:${port}`);
  });

  it('checks every redirect: a hop to a loopback address that is not allow-listed is refused', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost] });
    expect((await fetchFailure(fetcher.fetch(`${target.baseUrl}/to-other`))).code).toBe('forbidden_address');
    expect((await fetchFailure(fetcher.fetch(`${target.baseUrl}/to-localhost`))).code).toBe(
      'forbidden_address',
    );
    expect(other.requests).toHaveLength(0);
  });

  it('follows an allowed redirect', async () => {
    const response = await fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(
      `${target.baseUrl}/to-image`,
    );
    await expect(readAll(response.body)).resolves.toBe('png-bytes');
  });

  it('stops after the maximum number of redirects', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost], maxRedirects: 2 });
    expect((await fetchFailure(fetcher.fetch(`${target.baseUrl}/loop`))).code).toBe('too_many_redirects');
    expect(target.requests).toHaveLength(3);
  });

  it('refuses a body whose declared length exceeds the cap before reading it', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost] });
    expect((await fetchFailure(fetcher.fetch(`${target.baseUrl}/big-declared`))).code).toBe('too_large');
  });

  it('stops reading a body once it exceeds the cap', async () => {
    const response = await fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(
      `${target.baseUrl}/big-chunked`,
    );
    expect((await fetchFailure(readAll(response.body))).code).toBe('too_large');
    await target.requests[0].socketClosed;
  });

  it('gives up after the time cap', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost], timeoutMs: 100 });
    expect((await fetchFailure(fetcher.fetch(`${target.baseUrl}/silent`))).code).toBe('timeout');
    await target.requests[0].socketClosed;
  });

  it('gives up after the time cap even when the resolver never answers', async () => {
    const fetcher = fetcherFor({
      timeoutMs: 50,
      resolveHost: () => new Promise<ResolvedAddress[]>(() => undefined),
    });
    expect((await fetchFailure(fetcher.fetch('http://slow-dns.test/x'))).code).toBe('timeout');
  });

  it('reports a name that does not resolve', async () => {
    const fetcher = fetcherFor({ resolveHost: async () => Promise.reject(new Error('ENOTFOUND')) });
    expect((await fetchFailure(fetcher.fetch('http://nowhere.test/x'))).code).toBe('unresolvable_host');
  });

  it('sends the caller’s range headers on every hop and passes the 206 and its Content-Range back', async () => {
    const response = await fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(
      `${target.baseUrl}/to-partial`,
      { headers: { range: 'bytes=0-3', 'if-range': '"v1"' } },
    );
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe('bytes 0-3/9');
    await expect(readAll(response.body)).resolves.toBe('part');
    expect(target.requests.map((request) => [request.url, request.headers.range])).toEqual([
      ['/to-partial', 'bytes=0-3'],
      ['/partial', 'bytes=0-3'],
    ]);
    expect(target.requests[1].headers['if-range']).toBe('"v1"');
    expect(target.requests[1].headers.authorization).toBeUndefined();
  });

  it.each([
    ['a line break', 'bytes=0-1\r\nx-injected: 1'],
    ['a non-ASCII character', 'bytes=0-1\u00e9'],
    ['an empty value', ''],
  ])('refuses a range header with %s before connecting', async (_, range) => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost] });
    const failure = await fetchFailure(fetcher.fetch(`${target.baseUrl}/partial`, { headers: { range } }));
    expect(failure.code).toBe('invalid_header');
    expect(target.requests).toHaveLength(0);
  });

  it('applies a per-fetch size cap instead of the fetcher’s', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost] });
    const larger = await fetcher.fetch(`${target.baseUrl}/big-declared`, { maxBytes: 4096 });
    await expect(readAll(larger.body)).resolves.toHaveLength(2048);
    const smaller = await fetcher.fetch(`${target.baseUrl}/image.png`, { maxBytes: 4 });
    expect((await fetchFailure(readAll(smaller.body))).code).toBe('too_large');
  });

  it('lets a relayed body outlast the time cap when only the headers are timed', async () => {
    const fetcher = fetcherFor({ allowPrivateHosts: [targetHost], timeoutMs: 150 });
    const relayed = await fetcher.fetch(`${target.baseUrl}/slow-body`, { timeLimit: 'headers' });
    await expect(readAll(relayed.body)).resolves.toBe('late-bytes');
    const whole = await fetcher.fetch(`${target.baseUrl}/slow-body`);
    expect((await fetchFailure(readAll(whole.body))).code).toBe('timeout');
  });

  it('ends a relayed body, and its connection, when the caller aborts after the headers', async () => {
    const controller = new AbortController();
    const response = await fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(
      `${target.baseUrl}/open-body`,
      { signal: controller.signal, timeLimit: 'headers' },
    );
    const reason = new Error('client gone');
    const reading = (async () => {
      for await (const chunk of response.body) {
        expect(chunk.toString()).toBe('first');
        controller.abort(reason);
      }
    })();
    await expect(reading).rejects.toBe(reason);
    await target.requests[0].socketClosed;
  });

  it('rethrows the caller’s abort reason', async () => {
    const controller = new AbortController();
    const pending = fetcherFor({ allowPrivateHosts: [targetHost] }).fetch(`${target.baseUrl}/silent`, {
      signal: controller.signal,
    });
    const reason = new Error('caller gone');
    setTimeout(() => controller.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);
  });
});
