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
      'GET /bom': { status: 200, body: Buffer.from('\ufeff{"ok":true}') },
      'GET /small': { status: 200, body: 'x'.repeat(1_000) },
      'GET /large': {
        status: 200,
        body: Array.from({ length: 20 }, () => 'y'.repeat(16 * 1024)),
        pauseMs: 1,
      },
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

  it('rejects a request made after the client closed, and keeps no listener on its signal', async () => {
    const closed = createUndiciHttpClient();
    await closed.close();
    const cancellation = new RequestCancellation();
    await expect(
      closed.request({ method: 'GET', url: `${upstream.baseUrl}/small`, headers: {}, signal: cancellation }),
    ).rejects.toMatchObject({ name: 'ClientDestroyedError' });
    expect(cancellation.listenerCount('abort')).toBe(0);
    expect(upstream.requests).toHaveLength(0);
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

  it('reads a whole body of many chunks, and leaves out a leading byte order mark from its text', async () => {
    const large = await client.request({ method: 'GET', url: `${upstream.baseUrl}/large`, headers: {} });
    expect((await large.bytes()).toString()).toBe('y'.repeat(20 * 16 * 1024));
    const bom = await client.request({ method: 'GET', url: `${upstream.baseUrl}/bom`, headers: {} });
    await expect(bom.text()).resolves.toBe('{"ok":true}');
  });

  it('keeps the connection of a dumped short body and closes that of a long one', async () => {
    const small = await client.request({ method: 'GET', url: `${upstream.baseUrl}/small`, headers: {} });
    await small.dump();
    await new Promise((resolve) => setImmediate(resolve));
    const next = await client.request({ method: 'GET', url: `${upstream.baseUrl}/small`, headers: {} });
    await next.text();
    expect(upstream.requests[1].clientPort).toBe(upstream.requests[0].clientPort);

    // 320 KiB: more than a dump reads off to keep the connection.
    const large = await client.request({ method: 'GET', url: `${upstream.baseUrl}/large`, headers: {} });
    await large.dump();
    await upstream.requests[2].socketClosed;
  });

  it('closes the connection when its reader stops before the end', async () => {
    const response = await client.request({ method: 'GET', url: `${upstream.baseUrl}/held`, headers: {} });
    for await (const chunk of response.body) {
      expect(chunk.toString()).toBe('first piece');
      break;
    }
    await upstream.requests[0].socketClosed;
  });

  it('pauses the connection while its reader is behind, and delivers every byte once it reads on', async () => {
    const size = 32 * 1024 * 1024;
    let written = false;
    const flooding: Server = createServer((_request, response) => {
      response.writeHead(200);
      const piece = Buffer.alloc(64 * 1024, 'z');
      let left = size / piece.length;
      const writeOn = () => {
        while (left > 0) {
          left -= 1;
          if (!response.write(piece)) return void response.once('drain', writeOn);
        }
        response.end(() => (written = true));
      };
      writeOn();
    });
    await new Promise<void>((resolve) => flooding.listen(0, '127.0.0.1', resolve));
    const { port } = flooding.address() as AddressInfo;
    try {
      const response = await client.request({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} });
      const iterator = response.body[Symbol.asyncIterator]();
      let received = (await iterator.next()).value.length;
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Paused: the kernel's socket buffers hold a few MiB at most, not the 32 MiB the upstream has.
      expect(written).toBe(false);
      for (let next = await iterator.next(); !next.done; next = await iterator.next())
        received += next.value.length;
      expect(received).toBe(size);
      expect(written).toBe(true);
    } finally {
      flooding.closeAllConnections();
      flooding.close();
    }
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

    it('rejects at once, without a request upstream, when its signal was aborted before', async () => {
      const { signal, abort } = cancellable();
      const reason = new Error('gone before the call');
      abort(reason);
      await expect(
        client.request({ method: 'GET', url: `${upstream.baseUrl}/small`, headers: {}, signal }),
      ).rejects.toBe(reason);
      expect(upstream.requests).toHaveLength(0);
    });

    it('rejects a request still waiting for a connection as soon as its signal aborts', async () => {
      const single = createUndiciHttpClient({ connectionsPerOrigin: 1 });
      try {
        const holding = await single.request({ method: 'GET', url: `${upstream.baseUrl}/held`, headers: {} });
        const { signal, abort } = cancellable();
        const queued = single.request({
          method: 'GET',
          url: `${upstream.baseUrl}/small`,
          headers: {},
          signal,
        });
        const reason = new Error('client went away');
        abort(reason);
        await expect(queued).rejects.toBe(reason);
        // The held answer ends when its reader stops, and the queued request never went out.
        await holding.body[Symbol.asyncIterator]().return?.();
      } finally {
        await single.close();
      }
      expect(upstream.requests.map((request) => request.url)).toEqual(['/held']);
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
