import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  type ClosableUpstreamHttpClient,
  type ImageGenerationCall,
} from '@gateway/providers-core';
import {
  plainKeyContext,
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { imageSize } from 'image-size';
import { iotaImageAdapter } from './iota-image.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const GENERATE = 'POST /api/v3/images/generations';
const JSON_TYPE = { 'content-type': 'application/json' };
const MODEL = 'eta-iota-4-0-250828';

describe('iotaImageAdapter', () => {
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const contextFor = (baseUrl: string) => plainKeyContext({ baseUrl, apiKey: 'eta-secret-1', http });
  const callOf = (fields: Partial<ImageGenerationCall> = {}): ImageGenerationCall => ({
    upstreamModel: MODEL,
    prompt: 'a lighthouse',
    n: 1,
    size: { kind: 'pixels', width: 2560, height: 1440 },
    responseFormat: 'url',
    images: [],
    ...fields,
  });
  const replay = async (body: string | Buffer, status = 200, headers: Record<string, string> = {}) => {
    upstream = await startRecordedUpstream({
      [GENERATE]: { status, headers: { ...JSON_TYPE, ...headers }, body },
    });
    return contextFor(upstream.baseUrl);
  };
  const sentBody = (): Record<string, unknown> => JSON.parse(upstream.requests[0].body.toString('utf8'));

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(() => upstream?.close());

  it('declares a synchronous capability that generates and does not edit', () => {
    expect(iotaImageAdapter.mode).toBe('synchronous');
    expect(iotaImageAdapter.edit).toBeUndefined();
  });

  it('sends one image request with the Bearer key and hands on the URL the upstream answered', async () => {
    const result = await iotaImageAdapter.generate(callOf(), await replay(fixture('iota-url.body')));

    const [sent] = upstream.requests;
    expect(sent.url).toBe('/api/v3/images/generations');
    expect(sent.headers.authorization).toBe('Bearer eta-secret-1');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sentBody()).toEqual({
      model: MODEL,
      prompt: 'a lighthouse',
      size: '2560x1440',
      response_format: 'url',
    });

    expect(result.images).toEqual([{ kind: 'url', url: expect.stringMatching(/\/files\/img_\w+\.jpeg$/) }]);
    expect(result.itemErrors).toEqual([]);
    expect(result.usage).toEqual({ images: { count: 1, size: '2560x1440' } });
  });

  it('asks for b64_json when the client wants Base64 and decodes it into image bytes with their type', async () => {
    const result = await iotaImageAdapter.generate(
      callOf({ responseFormat: 'b64', size: { kind: 'pixels', width: 1280, height: 720 } }),
      await replay(fixture('iota-b64.body')),
    );
    expect(sentBody()).toMatchObject({ response_format: 'b64_json', size: '1280x720' });
    const [image] = result.images;
    if (image.kind !== 'bytes') throw new Error('expected bytes');
    expect(image.contentType).toBe('image/jpeg');
    expect(imageSize(image.bytes)).toMatchObject({ width: 1280, height: 720 });
    expect(result.usage).toEqual({ images: { count: 1, size: '1280x720' } });
  });

  it('sends references as data URLs (URLs as given) and watermark only when set', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    await iotaImageAdapter.generate(
      callOf({
        watermark: false,
        images: [
          { kind: 'bytes', bytes: png, contentType: 'image/png' },
          { kind: 'url', url: 'https://images.example/ref.jpeg' },
        ],
      }),
      await replay(fixture('iota-url.body')),
    );
    expect(sentBody()).toMatchObject({
      image: [`data:image/png;base64,${png.toString('base64')}`, 'https://images.example/ref.jpeg'],
      watermark: false,
    });
  });

  it('asks for n > 1 images in group mode and returns only the items that succeeded', async () => {
    const result = await iotaImageAdapter.generate(
      callOf({ n: 3 }),
      await replay(fixture('iota-group-partial.body')),
    );
    expect(sentBody()).toMatchObject({
      sequential_image_generation: 'auto',
      sequential_image_generation_options: { max_images: 3 },
    });
    expect(result.images).toHaveLength(2);
    expect(result.images.every((image) => image.kind === 'url')).toBe(true);
    expect(result.itemErrors).toEqual([
      {
        index: 2,
        failure: expect.objectContaining({
          kind: 'content_policy',
          retryable: false,
          upstreamCode: 'OutputImageSensitiveContentDetected',
        }),
      },
    ]);
    expect(result.usage).toEqual({ images: { count: 2, size: '2560x1440' } });
  });

  describe('answers without a usable image', () => {
    const blocked = { error: { code: 'OutputImageSensitiveContentDetected', message: 'blocked' } };
    const failed = { error: { code: 'InternalServiceError', message: 'item failed' } };

    it('is content_policy when moderation stopped every item', async () => {
      const body = JSON.stringify({ data: [blocked, blocked] });
      const error = await upstreamFailureOf(iotaImageAdapter.generate(callOf({ n: 2 }), await replay(body)));
      expect(error.failure).toMatchObject({ kind: 'content_policy', message: 'blocked' });
    });

    it('is the other failure when one item failed for another reason', async () => {
      const body = JSON.stringify({ data: [blocked, failed] });
      const error = await upstreamFailureOf(iotaImageAdapter.generate(callOf({ n: 2 }), await replay(body)));
      expect(error.failure).toMatchObject({
        kind: 'overload',
        retryable: true,
        upstreamCode: 'InternalServiceError',
      });
    });

    it.each([
      ['an empty data list', { data: [] }],
      ['no data list', { model: MODEL }],
    ])('is a retryable overload for %s', async (_, body) => {
      const error = await upstreamFailureOf(
        iotaImageAdapter.generate(callOf(), await replay(JSON.stringify(body))),
      );
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true });
    });

    it('counts an item that is no image (or Base64 of no image) as a failed item', async () => {
      const body = JSON.stringify({
        data: [
          { url: 'https://files.example/a.jpeg' },
          { b64_json: Buffer.from('not an image').toString('base64') },
          7,
        ],
      });
      const result = await iotaImageAdapter.generate(callOf({ n: 3 }), await replay(body));
      expect(result.images).toEqual([{ kind: 'url', url: 'https://files.example/a.jpeg' }]);
      expect(result.itemErrors.map(({ index, failure }) => [index, failure.kind])).toEqual([
        [1, 'overload'],
        [2, 'overload'],
      ]);
      expect(result.usage.images?.count).toBe(1);
    });
  });

  it.each([
    [
      'a blocked prompt',
      400,
      'error-input-sensitive.body',
      {},
      { kind: 'content_policy', retryable: false, upstreamCode: 'InputTextSensitiveContentDetected' },
    ],
    [
      'a blocked output',
      400,
      'error-output-sensitive.body',
      {},
      { kind: 'content_policy', retryable: false, upstreamCode: 'OutputImageSensitiveContentDetected' },
    ],
    [
      'an invalid parameter',
      400,
      'error-invalid-parameter.body',
      {},
      {
        kind: 'bad_request',
        retryable: false,
        upstreamCode: 'InvalidParameter',
        message: expect.stringContaining('image area'),
      },
    ],
    [
      'a wrong key',
      401,
      'error-authentication.body',
      {},
      { kind: 'auth', retryable: false, upstreamCode: 'AuthenticationError' },
    ],
    [
      'access denied',
      403,
      'error-access-denied.body',
      {},
      { kind: 'auth', retryable: false, upstreamCode: 'AccessDenied' },
    ],
    [
      'an overdue account',
      403,
      'error-account-overdue.body',
      {},
      { kind: 'insufficient_balance', retryable: false, upstreamCode: 'AccountOverdueError' },
    ],
    [
      'an unknown model',
      404,
      'error-model-not-found.body',
      {},
      { kind: 'bad_request', retryable: false, upstreamCode: 'InvalidEndpointOrModel.NotFound' },
    ],
    [
      'a rate limit',
      429,
      'error-rate-limit.body',
      { 'retry-after': '3' },
      { kind: 'rate_limit', retryable: true, retryAfterMs: 3000 },
    ],
    [
      'an overloaded server',
      429,
      'error-server-overloaded.body',
      {},
      { kind: 'overload', retryable: true, upstreamCode: 'ServerOverloaded' },
    ],
    [
      'an internal error',
      500,
      'error-internal.body',
      {},
      { kind: 'overload', retryable: true, upstreamCode: 'InternalServiceError' },
    ],
  ])('classifies %s (§6.1)', async (_, status, body, headers, expected) => {
    const error = await upstreamFailureOf(
      iotaImageAdapter.generate(callOf(), await replay(fixture(body), status, headers)),
    );
    expect(error.failure).toMatchObject({ ...expected, httpStatus: status });
  });

  it.each([
    [502, 'overload', true],
    [409, 'bad_request', false],
    [403, 'auth', false],
  ] as const)('classifies a bare HTTP %s without envelope by its status', async (status, kind, retryable) => {
    const error = await upstreamFailureOf(
      iotaImageAdapter.generate(callOf(), await replay('<html>proxy</html>', status)),
    );
    expect(error.failure).toMatchObject({
      kind,
      retryable,
      httpStatus: status,
      message: `upstream answered HTTP ${status}`,
    });
  });
});
