import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  UpstreamError,
  type ClosableUpstreamHttpClient,
} from '@gateway/providers-core';
import {
  collectTextStream,
  plainKeyContext,
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { kappaTextAdapter } from './kappa-text.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '__fixtures__', name));
/** The data texts of a recorded SSE body, exactly as sent. */
const sseDataOf = (name: string): string[] =>
  fixture(name)
    .toString('utf8')
    .split('\r\n\r\n')
    .filter((event) => event.length > 0)
    .map((event) => event.slice('data: '.length));
/** Splits a body into pieces of `size` bytes, so events and characters straddle chunk boundaries. */
const piecesOf = (body: Buffer, size: number): Buffer[] =>
  Array.from({ length: Math.ceil(body.length / size) }, (_, index) =>
    body.subarray(index * size, (index + 1) * size),
  );

const MODEL = 'kappa-2.0-flash';
const GENERATE = `POST /v1beta/models/${MODEL}:generateContent`;
const STREAM = `POST /v1beta/models/${MODEL}:streamGenerateContent?alt=sse`;
const SSE = { 'content-type': 'text/event-stream' };
const JSON_TYPE = { 'content-type': 'application/json; charset=UTF-8' };
const clientRequest = fixture('client-request.body');

describe('kappaTextAdapter', () => {
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const contextFor = (baseUrl: string, signal?: AbortSignal) =>
    plainKeyContext({ baseUrl, apiKey: 'kappa-secret-1', http, signal });
  const call = {
    upstreamModel: MODEL,
    request: JSON.parse(clientRequest.toString()),
    rawBody: clientRequest,
  };

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(() => upstream?.close());

  describe('generate', () => {
    it('forwards the client bytes with the key header and reads usage from usageMetadata', async () => {
      upstream = await startRecordedUpstream({
        [GENERATE]: { status: 200, headers: JSON_TYPE, body: fixture('generate-text.body') },
      });
      const response = await kappaTextAdapter.generate(call, contextFor(upstream.baseUrl));

      const [sent] = upstream.requests;
      expect(sent.method).toBe('POST');
      expect(sent.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
      expect(sent.headers['x-vendor-api-key']).toBe('kappa-secret-1');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.body.equals(clientRequest)).toBe(true);

      expect(response.body.equals(fixture('generate-text.body'))).toBe(true);
      expect(response.payload).toMatchObject({ modelVersion: MODEL, responseId: 'mZ3kZqAbCdEf' });
      // 12 prompt + 5 tool-use input; 3 visible + 25 reasoning output.
      expect(response.usage).toEqual({
        inputTokens: 17,
        outputTokens: 28,
        cachedInputTokens: 4,
        reasoningTokens: 25,
      });
      expect(response.promptBlockReason).toBeUndefined();
    });

    it('serialises the request when there are no client bytes', async () => {
      upstream = await startRecordedUpstream({
        [GENERATE]: { status: 200, body: fixture('generate-text.body') },
      });
      const request = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
      await kappaTextAdapter.generate({ upstreamModel: MODEL, request }, contextFor(`${upstream.baseUrl}/`));
      expect(upstream.requests[0].body.toString()).toBe(JSON.stringify(request));
    });

    it('reports a blocked prompt from promptFeedback when there are no candidates', async () => {
      upstream = await startRecordedUpstream({
        [GENERATE]: { status: 200, body: fixture('generate-blocked-prompt.body') },
      });
      const response = await kappaTextAdapter.generate(call, contextFor(upstream.baseUrl));
      expect(response.promptBlockReason).toBe('PROHIBITED_CONTENT');
      expect(response.usage).toEqual({ inputTokens: 9, outputTokens: 0 });
    });

    it('treats a 2xx body that is not a JSON object as a retryable overload', async () => {
      upstream = await startRecordedUpstream({ [GENERATE]: { status: 200, body: '<html>proxy</html>' } });
      const error = await upstreamFailureOf(kappaTextAdapter.generate(call, contextFor(upstream.baseUrl)));
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true, httpStatus: 200 });
    });
  });

  describe.each([
    ['generate', GENERATE],
    ['stream', STREAM],
  ] as const)('%s error answers', (method, route) => {
    it.each([
      [
        'wrong key (400 API_KEY_INVALID)',
        400,
        'error-api-key-invalid.body',
        {},
        { kind: 'auth', retryable: false, upstreamCode: 'API_KEY_INVALID' },
      ],
      [
        'invalid argument',
        400,
        'error-invalid-argument.body',
        {},
        {
          kind: 'bad_request',
          retryable: false,
          upstreamCode: 'INVALID_ARGUMENT',
          message: expect.stringContaining('generation_config.temperature'),
        },
      ],
      [
        'billing not enabled',
        400,
        'error-failed-precondition.body',
        {},
        { kind: 'insufficient_balance', retryable: false, upstreamCode: 'FAILED_PRECONDITION' },
      ],
      [
        'missing key',
        403,
        'error-permission-denied.body',
        {},
        { kind: 'auth', retryable: false, upstreamCode: 'PERMISSION_DENIED' },
      ],
      [
        'unknown model',
        404,
        'error-not-found.body',
        {},
        { kind: 'bad_request', retryable: false, upstreamCode: 'NOT_FOUND' },
      ],
      [
        'quota exhausted',
        429,
        'error-resource-exhausted.body',
        { 'retry-after': '7' },
        { kind: 'rate_limit', retryable: true, retryAfterMs: 7000 },
      ],
      [
        'internal error',
        500,
        'error-internal.body',
        {},
        { kind: 'overload', retryable: true, upstreamCode: 'INTERNAL' },
      ],
      [
        'unavailable',
        503,
        'error-unavailable.body',
        {},
        { kind: 'overload', retryable: true, upstreamCode: 'UNAVAILABLE' },
      ],
      [
        'deadline exceeded',
        504,
        'error-deadline-exceeded.body',
        {},
        { kind: 'overload', retryable: true, upstreamCode: 'DEADLINE_EXCEEDED' },
      ],
    ])('classifies %s', async (_, status, body, headers, expected) => {
      upstream = await startRecordedUpstream({
        [route]: { status, headers: { ...JSON_TYPE, ...headers }, body: fixture(body) },
      });
      const error = await upstreamFailureOf(kappaTextAdapter[method](call, contextFor(upstream.baseUrl)));
      expect(error.failure).toMatchObject({ ...expected, httpStatus: status });
    });

    it.each([
      [502, 'overload', true],
      [409, 'bad_request', false],
    ] as const)(
      'classifies a bare HTTP %s without envelope by its status',
      async (status, kind, retryable) => {
        upstream = await startRecordedUpstream({ [route]: { status, body: '<html>gateway</html>' } });
        const error = await upstreamFailureOf(kappaTextAdapter[method](call, contextFor(upstream.baseUrl)));
        expect(error.failure).toMatchObject({
          kind,
          retryable,
          httpStatus: status,
          message: `upstream answered HTTP ${status}`,
        });
      },
    );
  });

  describe('stream', () => {
    it('always asks for SSE and yields every CRLF-framed event in order, byte for byte, with cumulative usage', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: { status: 200, headers: SSE, body: piecesOf(fixture('stream-text.sse'), 37), pauseMs: 1 },
      });
      const stream = await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl));
      const { events, bytes, error } = await collectTextStream(stream);

      expect(error).toBeUndefined();
      expect(bytes.equals(fixture('stream-text.sse'))).toBe(true);
      const [sent] = upstream.requests;
      expect(sent.url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
      expect(sent.headers['x-vendor-api-key']).toBe('kappa-secret-1');
      expect(sent.body.equals(clientRequest)).toBe(true);

      expect(events.map((event) => event.json)).toEqual(sseDataOf('stream-text.sse'));
      expect(events.map((event) => event.chunk)).toEqual(
        sseDataOf('stream-text.sse').map((json) => JSON.parse(json)),
      );
      expect(events.map((event) => event.usage)).toEqual([
        { inputTokens: 12, outputTokens: 1 },
        { inputTokens: 12, outputTokens: 3 },
        { inputTokens: 12, outputTokens: 25, reasoningTokens: 20 },
      ]);
    });

    it('yields the single event of a blocked prompt', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: { status: 200, headers: SSE, body: fixture('stream-blocked-prompt.sse') },
      });
      const { events, error } = await collectTextStream(
        await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl)),
      );
      expect(error).toBeUndefined();
      expect(events).toHaveLength(1);
      expect(events[0].chunk).toMatchObject({ promptFeedback: { blockReason: 'SAFETY' } });
    });

    it('throws an UpstreamError for a mid-stream error event after yielding the events before it', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: {
          status: 200,
          headers: SSE,
          body: piecesOf(fixture('stream-mid-error.sse'), 50),
          pauseMs: 1,
        },
      });
      const { events, error } = await collectTextStream(
        await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl)),
      );
      expect(events.map((event) => event.json)).toEqual(sseDataOf('stream-mid-error.sse').slice(0, 2));
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).failure).toMatchObject({
        kind: 'overload',
        retryable: true,
        httpStatus: 503,
        upstreamCode: 'UNAVAILABLE',
        message: 'The model is overloaded. Please try again later.',
      });
    });

    it('yields the events and bytes before an error event that arrived in the same read', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: { status: 200, headers: SSE, body: fixture('stream-mid-error.sse') },
      });
      const { events, bytes, error } = await collectTextStream(
        await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl)),
      );
      const [firstTwo] = fixture('stream-mid-error.sse')
        .toString('utf8')
        .split(/(?<=\r\n\r\n)(?=data: \{"error")/);
      expect(events.map((event) => event.json)).toEqual(sseDataOf('stream-mid-error.sse').slice(0, 2));
      expect(bytes.toString('utf8')).toBe(firstTwo);
      expect(error).toBeInstanceOf(UpstreamError);
    });

    it('abort() stops the iteration with an abort error and closes the upstream connection', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: { status: 200, headers: SSE, body: fixture('stream-first-event.sse'), holdOpen: true },
      });
      const stream = await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl));
      const iterator = stream[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done).toBe(false);
      const pending = iterator.next();
      stream.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      await upstream.requests[0].socketClosed;
    });

    it('an abort of the call signal ends the stream with its reason and closes the connection', async () => {
      upstream = await startRecordedUpstream({
        [STREAM]: { status: 200, headers: SSE, body: fixture('stream-first-event.sse'), holdOpen: true },
      });
      const controller = new AbortController();
      const stream = await kappaTextAdapter.stream(call, contextFor(upstream.baseUrl, controller.signal));
      const reason = new Error('deadline passed');
      setTimeout(() => controller.abort(reason), 20);
      const { events, error } = await collectTextStream(stream);
      expect(events).toHaveLength(1);
      expect(error).toBe(reason);
      await upstream.requests[0].socketClosed;
    });
  });
});
