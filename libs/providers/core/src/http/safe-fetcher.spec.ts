import { startRecordedUpstream, type RecordedUpstream } from '../testing/recorded-upstream.server';
import {
  createSafeFetcher,
  SafeFetchError,
  type ResolvedAddress,
  type SafeFetcherOptions,
} from './safe-fetcher';

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
