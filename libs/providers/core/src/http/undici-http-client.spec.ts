import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startRecordedUpstream, type RecordedUpstream } from '../testing/recorded-upstream.server';
import { UpstreamError } from '../upstream-error';
import { RequestCancellation } from './request-cancellation';
import { createUndiciHttpClient, type ClosableUpstreamHttpClient } from './undici-http-client';

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('createUndiciHttpClient', () => {
  let upstream: RecordedUpstream;
  let client: ClosableUpstreamHttpClient;

  beforeEach(async () => {
    upstream = await startRecordedUpstream({
      'POST /echo?x=1': {
        status: 201,
        headers: { 'content-type': 'application/json', 'x-upstream': 'yes' },
        body: '{"ok":true}',
      },
      'GET /chunks': { status: 200, body: ['one,', 'two,', 'three'], pauseMs: 5 },
      'GET /silent': { status: 200, silent: true },
      'GET /held': { status: 200, body: 'first piece', holdOpen: true },
    });
    client = createUndiciHttpClient({ keepAliveTimeoutMs: 10_000 });
  });

  afterEach(async () => {
    await client.close();
    await upstream.close();
  });

  it('sends method, path, query, headers and body, and exposes status, headers and body', async () => {
    const response = await client.request({
      method: 'POST',
      url: `${upstream.baseUrl}/echo?x=1`,
      headers: { 'content-type': 'application/json', 'x-vendor-api-key': 'secret-1' },
      body: Buffer.from('{"in":1}'),
    });
    expect(response.status).toBe(201);
    expect(response.headers['x-upstream']).toBe('yes');
    await expect(response.text()).resolves.toBe('{"ok":true}');
    const [received] = upstream.requests;
    expect(received.method).toBe('POST');
    expect(received.url).toBe('/echo?x=1');
    expect(received.headers['x-vendor-api-key']).toBe('secret-1');
    expect(received.body.toString()).toBe('{"in":1}');
  });

  it('sends every request to its own path, also once more URLs were seen than it keeps split', async () => {
    // 1,024 split URLs are kept: the 1,025th clears them, and the first URL is split afresh.
    const paths = [...Array.from({ length: 1025 }, (_, index) => `/n/${index}?q=${index}`), '/n/0?q=0'];
    for (const path of paths) {
      const response = await client.request({
        method: 'GET',
        url: `${upstream.baseUrl}${path}`,
        headers: {},
      });
      await response.dump();
    }
    expect(upstream.requests.map((request) => request.url)).toEqual(paths);
  });

  it('streams the body chunk by chunk and reuses the kept-alive connection', async () => {
    const first = await client.request({ method: 'GET', url: `${upstream.baseUrl}/chunks`, headers: {} });
    const pieces: string[] = [];
    for await (const chunk of first.body) pieces.push(chunk.toString());
    expect(pieces.join('')).toBe('one,two,three');
    expect(pieces.length).toBeGreaterThan(1);
    // undici frees the pooled connection a tick after the body's end reaches the reader.
    await new Promise((resolve) => setImmediate(resolve));

    const second = await client.request({ method: 'GET', url: `${upstream.baseUrl}/chunks`, headers: {} });
    await expect(second.bytes()).resolves.toEqual(Buffer.from('one,two,three'));
    const [firstRequest, secondRequest] = upstream.requests;
    let firstSocketClosed = false;
    void firstRequest.socketClosed.then(() => (firstSocketClosed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(firstSocketClosed).toBe(false);
    expect(secondRequest.clientPort).toBe(firstRequest.clientPort);
  });

  it('maps a refused connection to a retryable overload', async () => {
    const port = await unusedPort();
    const error = await failureOf(
      client.request({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).failure).toMatchObject({ kind: 'overload', retryable: true });
  });

  it('maps a connection reset before the answer to a retryable overload', async () => {
    const resetting: Server = createServer((request) => request.socket.destroy());
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const { port } = resetting.address() as AddressInfo;
    try {
      const error = await failureOf(
        client.request({ method: 'POST', url: `http://127.0.0.1:${port}/`, headers: {}, body: 'x' }),
      );
      expect((error as UpstreamError).failure).toMatchObject({ kind: 'overload', retryable: true });
    } finally {
      resetting.close();
    }
  });

  it('maps a headers timeout to a retryable timeout', async () => {
    const error = await failureOf(
      client.request({ method: 'GET', url: `${upstream.baseUrl}/silent`, headers: {}, headersTimeoutMs: 50 }),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).failure).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('maps a body timeout while iterating to a retryable timeout', async () => {
    const response = await client.request({
      method: 'GET',
      url: `${upstream.baseUrl}/held`,
      headers: {},
      bodyTimeoutMs: 50,
    });
    const error = await failureOf(
      (async () => {
        for await (const _chunk of response.body) void _chunk;
      })(),
    );
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).failure).toMatchObject({ kind: 'timeout', retryable: true });
  });

  describe.each([
    [
      'an AbortController',
      () => {
        const controller = new AbortController();
        return { signal: controller.signal, abort: (reason?: unknown) => controller.abort(reason) };
      },
    ],
    [
      'a RequestCancellation',
      () => {
        const cancellation = new RequestCancellation();
        return { signal: cancellation, abort: (reason?: unknown) => cancellation.abort(reason) };
      },
    ],
  ])('aborted through %s', (_kind, cancellable) => {
    it('rethrows an abort before the headers as the signal reason and closes the connection', async () => {
      const { signal, abort } = cancellable();
      const pending = client.request({
        method: 'GET',
        url: `${upstream.baseUrl}/silent`,
        headers: {},
        signal,
      });
      // Aborted once the upstream holds the request (a fixed pause lost that race under a loaded suite).
      while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      const reason = new Error('client went away');
      abort(reason);
      await expect(pending).rejects.toBe(reason);
      await upstream.requests[0].socketClosed;
    });

    it('rethrows an abort while the body streams as the signal reason and closes the connection', async () => {
      const { signal, abort } = cancellable();
      const response = await client.request({
        method: 'GET',
        url: `${upstream.baseUrl}/held`,
        headers: {},
        signal,
      });
      const iterator = response.body[Symbol.asyncIterator]();
      await expect(iterator.next()).resolves.toMatchObject({ done: false });
      const pendingChunk = iterator.next();
      abort();
      const error = await failureOf(pendingChunk);
      expect(error).not.toBeInstanceOf(UpstreamError);
      expect(error).toBe(signal.reason);
      expect(error).toMatchObject({ name: 'AbortError' });
      await upstream.requests[0].socketClosed;
    });
  });
});
