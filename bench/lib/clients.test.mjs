// The time-to-first-byte and open-streams clients against a paced stream server on loopback.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { holdOpenStreams } from './open-streams.mjs';
import { measureTimeToFirstByte } from './ttfb-client.mjs';

let server;
let url;
const connections = new Set();

before(async () => {
  // First chunk after 5 ms, the end 60 ms later (`/long`: 1.5 s later, so that streams overlap even on a
  // busy machine; `/late-end`: 500 ms later, so that a first byte the busy CI machine delays by tens of
  // milliseconds is still told from the end); `/fail` answers 500; `/short` never sends the end marker.
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url === '/fail') {
        response.writeHead(500).end('no');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      setTimeout(() => response.write('data: {"n":1}\n\n'), 5);
      const endAfterMs = { '/long': 1500, '/late-end': 505 }[request.url] ?? 65;
      setTimeout(
        () => response.end(request.url === '/short' ? 'data: {"n":2}\n\n' : 'data: [DONE]\n\n'),
        endAfterMs,
      );
    });
  });
  server.on('connection', (socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
});

after(() => new Promise((resolve) => server.close(resolve)));

test('time to first byte counts the first chunk, not the whole stream, over one connection', async () => {
  const result = await measureTimeToFirstByte({
    url: `${url}/late-end`,
    headers: {},
    body: '{}',
    count: 5,
    warmup: 1,
  });
  assert.equal(result.failures, 0);
  assert.ok(result.ttfbUs.p50 >= 4_000, `p50 ${result.ttfbUs.p50}`);
  assert.ok(result.ttfbUs.p99 < 400_000, `p99 ${result.ttfbUs.p99}`);
  assert.ok(result.headersUs.p50 <= result.ttfbUs.p50);
  assert.ok(connections.size <= 1);
});

test('failed answers are counted, not timed', async () => {
  const result = await measureTimeToFirstByte({
    url: `${url}/fail`,
    headers: {},
    body: '{}',
    count: 3,
    warmup: 0,
  });
  assert.equal(result.failures, 3);
  assert.equal(result.ttfbUs, null);
  assert.match(result.firstFailure, /status 500/);
});

test('open streams are all open at once and complete with their end marker', async () => {
  let allOpenAt = null;
  const result = await holdOpenStreams(
    { url: `${url}/long`, headers: {}, body: '{}', streams: 120, endMarker: '[DONE]', deadlineMs: 10_000 },
    (afterMs) => (allOpenAt = afterMs),
  );
  assert.equal(result.completed, 120);
  assert.equal(result.failed, 0);
  assert.equal(result.peakOpen, 120);
  assert.equal(result.allOpenAfterMs, allOpenAt);
});

test('a stream without its end marker is a failure', async () => {
  const result = await holdOpenStreams({
    url: `${url}/short`,
    headers: {},
    body: '{}',
    streams: 3,
    endMarker: '[DONE]',
    deadlineMs: 5_000,
  });
  assert.equal(result.completed, 0);
  assert.equal(result.failed, 3);
  assert.match(result.firstError, /ends with/);
});
