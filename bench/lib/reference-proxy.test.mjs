// The reference proxy against a small fake upstream on loopback.
import assert from 'node:assert/strict';
import { AsyncResource, executionAsyncId } from 'node:async_hooks';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { PROXY_KEY, startReferenceProxy } from '../reference-proxy.mjs';

const seen = [];
let upstream;
let proxy;
let proxyUrl;

before(async () => {
  upstream = createServer((incoming, response) => {
    let body = '';
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      seen.push({ url: incoming.url, headers: incoming.headers, body });
      if (incoming.url.includes(':streamGenerateContent')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(
          'data: {"candidates":[],"usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":1}}\r\n\r\n',
        );
        // The usage event split across two writes: the scanner must join them.
        response.write('data: {"candidates":[],"usageMeta');
        response.end('data":{"promptTokenCount":2,"candidatesTokenCount":5}}\r\n\r\n');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4 } }));
    });
  });
  await new Promise((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startReferenceProxy({ port: 0, upstreamUrl: `http://127.0.0.1:${upstream.address().port}` });
  proxyUrl = `http://127.0.0.1:${proxy.server.address().port}`;
});

after(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
});

async function post(path, headers, body) {
  const answer = await request(`${proxyUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: answer.statusCode, text: await answer.body.text() };
}

test('a wrong key never reaches the upstream', async () => {
  const before = seen.length;
  const answer = await post('/v1/chat/completions', { authorization: 'Bearer nope' }, '{"model":"m"}');
  assert.equal(answer.status, 401);
  assert.equal(seen.length, before);
});

test('OpenAI-style requests go upstream byte for byte with the upstream key', async () => {
  const body = '{"model":"chat-fast",  "messages":[]}';
  const answer = await post(
    '/v1/chat/completions',
    { authorization: `Bearer ${PROXY_KEY}`, 'x-sim': 'chunks=2' },
    body,
  );
  assert.equal(answer.status, 200);
  const forwarded = seen.at(-1);
  assert.equal(forwarded.body, body);
  assert.equal(forwarded.headers.authorization, 'Bearer sim-compat-key');
  assert.equal(forwarded.headers['x-sim'], 'chunks=2');
});

test('native streams are piped through and their last usage is counted', async () => {
  const stats = async () =>
    JSON.parse((await request(`${proxyUrl}/__proxy/stats`).then((r) => r.body.text())) || '{}');
  const before = await stats();
  const answer = await post(
    '/v1beta/models/kappa-2.0-flash:streamGenerateContent',
    { 'x-vendor-api-key': PROXY_KEY },
    '{"contents":[]}',
  );
  assert.equal(answer.status, 200);
  assert.ok(answer.text.endsWith('"candidatesTokenCount":5}}\r\n\r\n'));
  assert.equal(seen.at(-1).url, '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse');
  assert.equal(seen.at(-1).headers['x-vendor-api-key'], 'sim-kappa-key');
  const afterStream = await stats();
  assert.equal(afterStream.requests - before.requests, 1);
  assert.equal(afterStream.outputTokens - before.outputTokens, 5);
});

test('image generations go upstream byte for byte; a body without a model does not', async () => {
  const body = '{"model":"draw-2", "prompt":"x","response_format":"url"}';
  const answer = await post('/v1/images/generations', { authorization: `Bearer ${PROXY_KEY}` }, body);
  assert.equal(answer.status, 200);
  assert.equal(seen.at(-1).url, '/v1/images/generations');
  assert.equal(seen.at(-1).body, body);
  assert.equal(seen.at(-1).headers.authorization, 'Bearer sim-compat-key');
  const before = seen.length;
  const refused = await post(
    '/v1/images/generations',
    { authorization: `Bearer ${PROXY_KEY}` },
    '{"prompt":"x"}',
  );
  assert.equal(refused.status, 400);
  assert.equal(seen.length, before);
});

test('malformed JSON is refused before the upstream', async () => {
  const before = seen.length;
  const answer = await post('/v1/chat/completions', { authorization: `Bearer ${PROXY_KEY}` }, '{"model":');
  assert.equal(answer.status, 400);
  assert.equal(seen.length, before);
});

test('binds callbacks to their async resource without the deprecated wrappers', () => {
  const resource = new AsyncResource('bench-test');
  const bound = resource.bind(function (value) {
    return { self: this, value, asyncId: executionAsyncId() };
  });

  assert.equal(Object.hasOwn(bound, 'asyncResource'), false);
  const receiver = {};
  assert.deepEqual(bound.call(receiver, 7), { self: receiver, value: 7, asyncId: resource.asyncId() });
});
