import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  UpstreamError,
  type ClosableUpstreamHttpClient,
  type TextCall,
} from '@gateway/providers-core';
import {
  collectTextStream,
  plainKeyContext,
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { compatTextAdapter } from './compat-text.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
/** The data texts of a recorded SSE body, exactly as sent. */
const sseDataOf = (name: string): string[] =>
  fixture(name)
    .toString('utf8')
    .split('\n\n')
    .filter((event) => event.length > 0)
    .map((event) => event.slice('data: '.length));
const piecesOf = (body: Buffer, size: number): Buffer[] =>
  Array.from({ length: Math.ceil(body.length / size) }, (_, index) =>
    body.subarray(index * size, (index + 1) * size),
  );
const callOf = (bodyFixture: string, upstreamModel: string): TextCall => {
  const rawBody = fixture(bodyFixture);
  return { upstreamModel, request: JSON.parse(rawBody.toString()), rawBody };
};

const CHAT = 'POST /v1/chat/completions';
const SSE = { 'content-type': 'text/event-stream' };

describe('compatTextAdapter', () => {
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const contextFor = (baseUrl: string, signal?: AbortSignal) =>
    plainKeyContext({ baseUrl, apiKey: 'compat-secret-1', http, signal });
  const sentBody = (): Record<string, unknown> => JSON.parse(upstream.requests[0].body.toString());

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(() => upstream?.close());

  describe('generate', () => {
    it('forwards the client bytes untouched when the model needs no mapping, and reads usage', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, body: fixture('generate-text.body') },
      });
      const call = callOf('client-request.body', 'chat-large');
      const response = await compatTextAdapter.generate(call, contextFor(upstream.baseUrl));

      const [sent] = upstream.requests;
      expect(sent.url).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer compat-secret-1');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers['x-vendor-api-key']).toBeUndefined();
      expect(sent.body.equals(call.rawBody as Buffer)).toBe(true);

      expect(response.body.equals(fixture('generate-text.body'))).toBe(true);
      expect(response.payload).toMatchObject({ object: 'chat.completion', id: 'chatcmpl-8xQa1' });
      expect(response.usage).toEqual({
        inputTokens: 9,
        outputTokens: 30,
        cachedInputTokens: 4,
        reasoningTokens: 27,
      });
    });

    it('rewrites only the model when the channel maps it to another upstream id', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, body: fixture('generate-text.body') },
      });
      const call = callOf('client-request.body', 'relay-chat-large');
      await compatTextAdapter.generate(call, contextFor(upstream.baseUrl));
      expect(sentBody()).toEqual({ ...call.request, model: 'relay-chat-large' });
    });
  });

  describe('stream', () => {
    it('adds include_usage (and maps the model) when the client did not ask for the usage chunk', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-text.sse') },
      });
      const call = callOf('client-stream-request.body', 'relay-chat-large');
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      expect(sentBody()).toEqual({
        ...call.request,
        model: 'relay-chat-large',
        stream: true,
        stream_options: { include_usage: true },
      });
    });

    it('splices include_usage into the client bytes when the model needs no mapping', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-text.sse') },
      });
      const call = callOf('client-stream-request.body', 'chat-large');
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      const clientText = (call.rawBody as Buffer).toString().trimEnd();
      expect(upstream.requests[0].body.toString()).toBe(
        `${clientText.slice(0, -1)},"stream_options":{"include_usage":true}}`,
      );
      expect(sentBody()).toEqual({ ...call.request, stream_options: { include_usage: true } });
    });

    const streamCallOf = (text: string): TextCall => ({
      upstreamModel: 'chat-large',
      request: JSON.parse(text),
      rawBody: Buffer.from(text),
    });

    it('splices before a closing brace followed by whitespace', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-text.sse') },
      });
      const call = streamCallOf('{ "model": "chat-large", "stream": true, "messages": [] }\r\n\t ');
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      expect(upstream.requests[0].body.toString()).toBe(
        '{ "model": "chat-large", "stream": true, "messages": [] ,"stream_options":{"include_usage":true}}',
      );
    });

    it('merges include_usage into stream_options the client sent without it', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-text.sse') },
      });
      const call = streamCallOf(
        '{"model":"chat-large","stream":true,"messages":[],"stream_options":{"include_usage":false,"x":1}}',
      );
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      expect(sentBody()).toEqual({
        model: 'chat-large',
        stream: true,
        messages: [],
        stream_options: { include_usage: true, x: 1 },
      });
    });

    it('forwards the client bytes untouched when they already ask for usage, and yields every event byte for byte', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: piecesOf(fixture('stream-text.sse'), 41), pauseMs: 1 },
      });
      const call = callOf('client-stream-request-with-usage.body', 'chat-large');
      const { events, error } = await collectTextStream(
        await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)),
      );

      expect(error).toBeUndefined();
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Bearer compat-secret-1');
      expect(sent.body.equals(call.rawBody as Buffer)).toBe(true);
      const recorded = sseDataOf('stream-text.sse');
      expect(recorded[recorded.length - 1]).toBe('[DONE]');
      expect(events.map((event) => event.json)).toEqual(recorded.slice(0, -1));
      expect(events.map((event) => event.usage)).toEqual([
        undefined,
        undefined,
        undefined,
        { inputTokens: 9, outputTokens: 3 },
      ]);
      expect(events[1].chunk).toMatchObject({ choices: [{ delta: { content: 'Hi é.' } }] });
    });

    it('reads to the end of the body after [DONE], so the connection goes back to the pool', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-text.sse') },
      });
      const call = callOf('client-stream-request-with-usage.body', 'chat-large');
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      await new Promise((resolve) => setImmediate(resolve));
      await collectTextStream(await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)));
      expect(upstream.requests[1].clientPort).toBe(upstream.requests[0].clientPort);
    });

    it('throws an UpstreamError for a mid-stream error event after yielding the events before it', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-mid-error.sse') },
      });
      const call = callOf('client-stream-request-with-usage.body', 'chat-large');
      const { events, error } = await collectTextStream(
        await compatTextAdapter.stream(call, contextFor(upstream.baseUrl)),
      );
      expect(events.map((event) => event.json)).toEqual(sseDataOf('stream-mid-error.sse').slice(0, 2));
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).failure).toMatchObject({
        kind: 'overload',
        retryable: true,
        upstreamCode: 'server_error',
      });
    });

    it('abort() stops the iteration with an abort error and closes the upstream connection', async () => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status: 200, headers: SSE, body: fixture('stream-first-event.sse'), holdOpen: true },
      });
      const stream = await compatTextAdapter.stream(
        callOf('client-stream-request.body', 'chat-large'),
        contextFor(upstream.baseUrl),
      );
      const iterator = stream[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      const pending = iterator.next();
      stream.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      await upstream.requests[0].socketClosed;
    });
  });

  describe.each(['generate', 'stream'] as const)('%s error answers', (method) => {
    it.each([
      [
        'an invalid request',
        400,
        'error-invalid-request.body',
        {},
        {
          kind: 'bad_request',
          retryable: false,
          upstreamCode: 'unknown_parameter',
          message: expect.stringContaining('tempreature'),
        },
      ],
      [
        'a content policy violation',
        400,
        'error-content-policy-violation.body',
        {},
        { kind: 'content_policy', retryable: false, upstreamCode: 'content_policy_violation' },
      ],
      [
        'a moderation block',
        400,
        'error-moderation-blocked.body',
        {},
        { kind: 'content_policy', retryable: false, upstreamCode: 'moderation_blocked' },
      ],
      [
        'an invalid key',
        401,
        'error-invalid-api-key.body',
        {},
        { kind: 'auth', retryable: false, upstreamCode: 'invalid_api_key' },
      ],
      ['an unsupported region', 403, 'error-unsupported-region.body', {}, { kind: 'auth', retryable: false }],
      [
        'an unknown model',
        404,
        'error-model-not-found.body',
        {},
        { kind: 'bad_request', retryable: false, upstreamCode: 'model_not_found' },
      ],
      [
        'a rate limit',
        429,
        'error-rate-limit.body',
        { 'retry-after': '2' },
        { kind: 'rate_limit', retryable: true, retryAfterMs: 2000, upstreamCode: 'rate_limit_exceeded' },
      ],
      [
        'an exhausted quota',
        429,
        'error-insufficient-quota.body',
        { 'retry-after': '2' },
        { kind: 'insufficient_balance', retryable: false, upstreamCode: 'insufficient_quota' },
      ],
      ['a server error', 500, 'error-server-error.body', {}, { kind: 'overload', retryable: true }],
      ['a bad gateway', 502, 'error-server-error.body', {}, { kind: 'overload', retryable: true }],
      [
        'an overloaded server',
        503,
        'error-overloaded.body',
        {},
        { kind: 'overload', retryable: true, upstreamCode: 'server_is_overloaded' },
      ],
      ['a gateway timeout', 504, 'error-server-error.body', {}, { kind: 'overload', retryable: true }],
      [
        'a relay code it does not know, by status 400',
        400,
        'error-relay-unknown-code.body',
        {},
        { kind: 'bad_request', retryable: false, upstreamCode: 'relay_busy_9' },
      ],
      [
        'a relay code it does not know, by status 503',
        503,
        'error-relay-unknown-code.body',
        {},
        { kind: 'overload', retryable: true, upstreamCode: 'relay_busy_9' },
      ],
    ])('classifies %s', async (_, status, body, headers, expected) => {
      upstream = await startRecordedUpstream({
        [CHAT]: { status, headers: { 'content-type': 'application/json', ...headers }, body: fixture(body) },
      });
      const error = await upstreamFailureOf(
        compatTextAdapter[method](callOf('client-request.body', 'chat-large'), contextFor(upstream.baseUrl)),
      );
      expect(error.failure).toMatchObject({ ...expected, httpStatus: status });
    });
  });
});
