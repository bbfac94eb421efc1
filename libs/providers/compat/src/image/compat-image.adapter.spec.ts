import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  type ClosableUpstreamHttpClient,
  type ImageEditCall,
  type ImageOperation,
  type ImageRequest,
} from '@gateway/providers-core';
import {
  plainKeyContext,
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { imageSize } from 'image-size';
import { pngInput } from '../testing/image-inputs';
import { compatImageAdapter } from './compat-image.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));

const GENERATIONS = 'POST /v1/images/generations';
const EDITS = 'POST /v1/images/edits';
const JSON_TYPE = { 'content-type': 'application/json' };

/** The call a channel receives: the plan's, with the channel's upstream model id. */
function callOf(
  fields: Partial<ImageRequest> & { model: string },
  operation: ImageOperation = 'generate',
  upstreamModel = fields.model,
): ImageEditCall {
  const request: ImageRequest = { prompt: 'a lighthouse', responseFormat: 'url', images: [], ...fields };
  const plan = compatImageAdapter.plan(request, operation);
  if (!plan.ok) throw new Error(plan.message);
  return { ...plan.call, upstreamModel };
}

describe('compatImageAdapter', () => {
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const contextFor = (baseUrl: string) => plainKeyContext({ baseUrl, apiKey: 'compat-secret-1', http });
  const sentJson = (): Record<string, unknown> => JSON.parse(upstream.requests[0].body.toString());
  const sentForm = (): Promise<FormData> => {
    const [sent] = upstream.requests;
    const headers = { 'content-type': String(sent.headers['content-type']) };
    return new Response(sent.body, { headers }).formData();
  };
  const replay = async (route: string, status: number, body: string) => {
    upstream = await startRecordedUpstream({ [route]: { status, headers: JSON_TYPE, body: fixture(body) } });
  };
  const generate = (call: ImageEditCall) => compatImageAdapter.generate(call, contextFor(upstream.baseUrl));
  const edit = (call: ImageEditCall) => compatImageAdapter.edit!(call, contextFor(upstream.baseUrl));

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(() => upstream?.close());

  it('is synchronous and declares edits', () => {
    expect(compatImageAdapter.mode).toBe('synchronous');
    expect(compatImageAdapter.edit).toBeDefined();
  });

  describe('generate', () => {
    it('asks img-1 without response_format and reads Base64 images, tokens and metadata', async () => {
      await replay(GENERATIONS, 200, 'images-img-1.body');
      const result = await generate(callOf({ model: 'img-1', n: 2, size: '1024x1024', quality: 'low' }));
      const [sent] = upstream.requests;
      expect(sent.url).toBe('/v1/images/generations');
      expect(sent.headers.authorization).toBe('Bearer compat-secret-1');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sentJson()).toEqual({
        model: 'img-1',
        prompt: 'a lighthouse',
        n: 2,
        size: '1024x1024',
        quality: 'low',
      });
      expect(result.images).toHaveLength(2);
      const [first] = result.images;
      expect(first).toMatchObject({ kind: 'bytes', contentType: 'image/webp' });
      expect(imageSize((first as { bytes: Buffer }).bytes)).toMatchObject({ type: 'webp' });
      expect(result.usage).toEqual({
        images: { count: 2, size: '1024x1024', quality: 'low' },
        tokens: { inputTokens: 3, outputTokens: 544 },
      });
      expect(result.metadata).toEqual({
        background: 'opaque',
        output_format: 'webp',
        quality: 'low',
        size: '1024x1024',
      });
      expect(result).toMatchObject({ itemErrors: [], warnings: [] });
    });

    it('asks draw-3 for URLs with its style and quality, and reads the revised prompt', async () => {
      await replay(GENERATIONS, 200, 'images-draw-3.body');
      const result = await generate(
        callOf(
          { model: 'draw-3', size: '1792x1024', quality: 'hd', style: 'natural' },
          'generate',
          'draw-3-relay',
        ),
      );
      expect(sentJson()).toEqual({
        model: 'draw-3-relay',
        prompt: 'a lighthouse',
        n: 1,
        size: '1792x1024',
        quality: 'hd',
        style: 'natural',
        response_format: 'url',
      });
      expect(result.images).toEqual([
        {
          kind: 'url',
          url: 'http://127.0.0.1:9/files/img_5YcSguhAq8xh8hrZRU4oiJdp.png',
          revisedPrompt: 'a lighthouse',
        },
      ]);
      expect(result.usage).toEqual({ images: { count: 1, size: '1792x1024', quality: 'hd' } });
      expect(result.metadata).toBeUndefined();
    });

    it('sends zeta its ratio size and Base64 references, and takes the URLs it answers', async () => {
      await replay(GENERATIONS, 200, 'images-zeta.body');
      const reference = pngInput(32, 32) as { bytes: Buffer };
      const call = callOf({
        model: 'zeta-4-2-image',
        n: 2,
        ratio: '16:9',
        responseFormat: 'b64',
        images: [pngInput(32, 32)],
      });
      const result = await generate(call);
      expect(sentJson()).toEqual({
        model: 'zeta-4-2-image',
        prompt: 'a lighthouse',
        n: 2,
        size: '2560x1440',
        response_format: 'b64_json',
        image: [reference.bytes.toString('base64')],
      });
      expect(result.images.map((image) => image.kind)).toEqual(['url', 'url']);
      expect(result.usage.images).toEqual({ count: 2, size: '2560x1440' });
    });
  });

  describe('edit', () => {
    it('uploads img-* images as image[] with the mask, as multipart, without response_format', async () => {
      await replay(EDITS, 200, 'images-img-1.body');
      const call = callOf(
        { model: 'img-2', images: [pngInput(64, 64), pngInput(64, 64)], mask: pngInput(64, 64), n: 2 },
        'edit',
      );
      const result = await edit(call);
      const [sent] = upstream.requests;
      expect(sent.url).toBe('/v1/images/edits');
      expect(sent.headers.authorization).toBe('Bearer compat-secret-1');
      expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const form = await sentForm();
      expect([...form.keys()]).toEqual(['model', 'prompt', 'n', 'quality', 'image[]', 'image[]', 'mask']);
      expect(form.get('model')).toBe('img-2');
      expect(result.images).toHaveLength(2);
    });

    it('uploads the draw-2 image as image and asks for the format the client wants', async () => {
      await replay(EDITS, 200, 'images-draw-2-edit.body');
      const result = await edit(
        callOf(
          { model: 'draw-2', images: [pngInput(64, 64)], size: '256x256', responseFormat: 'url' },
          'edit',
        ),
      );
      const form = await sentForm();
      expect(form.get('response_format')).toBe('url');
      expect(form.get('size')).toBe('256x256');
      expect((form.get('image') as File).type).toBe('image/png');
      expect(result.images).toEqual([
        { kind: 'url', url: 'http://127.0.0.1:9/files/img_ZJZT6h6wbvVXWhbV9TVeLfNN.png' },
      ]);
      expect(result.usage).toEqual({ images: { count: 1, size: '256x256' } });
    });
  });

  describe('errors', () => {
    it.each([
      [
        'an img-* moderation block',
        'img-2',
        'error-image-moderation-blocked.body',
        400,
        'content_policy',
        'moderation_blocked',
      ],
      [
        'a draw-* content policy violation',
        'draw-3',
        'error-image-content-policy.body',
        400,
        'content_policy',
        'content_policy_violation',
      ],
      [
        'an unknown parameter',
        'img-2',
        'error-unknown-parameter.body',
        400,
        'bad_request',
        'unknown_parameter',
      ],
      ['a rate limit', 'img-1', 'error-rate-limit.body', 429, 'rate_limit', 'rate_limit_exceeded'],
      ['an overloaded server', 'draw-2', 'error-overloaded.body', 503, 'overload', 'server_is_overloaded'],
      ['an invalid key', 'draw-2', 'error-invalid-api-key.body', 401, 'auth', 'invalid_api_key'],
    ])('classifies %s with the compat classifier', async (_, model, body, status, kind, upstreamCode) => {
      await replay(GENERATIONS, status, body);
      const error = await upstreamFailureOf(generate(callOf({ model })));
      expect(error.failure).toMatchObject({ kind, upstreamCode, httpStatus: status });
    });

    it('classifies a blocked edit as content_policy', async () => {
      await replay(EDITS, 400, 'error-image-moderation-blocked.body');
      const error = await upstreamFailureOf(
        edit(callOf({ model: 'img-1', images: [pngInput(64, 64)] }, 'edit')),
      );
      expect(error.failure).toMatchObject({ kind: 'content_policy', retryable: false });
    });

    it('treats an answer without any image as the upstream misbehaving, skipping items without one', async () => {
      upstream = await startRecordedUpstream({
        [GENERATIONS]: {
          status: 200,
          headers: JSON_TYPE,
          body: '{"created":1,"data":[{"revised_prompt":"x"},{}]}',
        },
      });
      const error = await upstreamFailureOf(generate(callOf({ model: 'draw-2' })));
      expect(error.failure).toMatchObject({ kind: 'overload', retryable: true, httpStatus: 200 });
    });
  });
});
