import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createUndiciHttpClient,
  type ClosableUpstreamHttpClient,
  type ImageGenerationCall,
  type UpstreamHttpClient,
} from '@gateway/providers-core';
import {
  plainKeyContext,
  startRecordedUpstream,
  upstreamFailureOf,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { imageSize } from 'image-size';
import { kappaImageAdapter } from './kappa-image.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const MODEL = 'kappa-3-pro-image-preview';
const GENERATE = `POST /v1beta/models/${MODEL}:generateContent`;
const JSON_TYPE = { 'content-type': 'application/json; charset=UTF-8' };

describe('kappaImageAdapter', () => {
  let upstream: RecordedUpstream;
  let http: ClosableUpstreamHttpClient;
  const contextFor = (baseUrl: string) => plainKeyContext({ baseUrl, apiKey: 'kappa-secret-1', http });
  const callOf = (fields: Partial<ImageGenerationCall> = {}): ImageGenerationCall => ({
    upstreamModel: MODEL,
    prompt: 'a lighthouse',
    n: 1,
    size: { kind: 'tier', tier: '2K' },
    aspectRatio: '16:9',
    responseFormat: 'url',
    images: [],
    ...fields,
  });
  const replay = async (body: string | Buffer, status = 200) => {
    upstream = await startRecordedUpstream({ [GENERATE]: { status, headers: JSON_TYPE, body } });
    return contextFor(upstream.baseUrl);
  };

  beforeAll(() => {
    http = createUndiciHttpClient();
  });
  afterAll(() => http.close());
  afterEach(() => upstream?.close());

  it('declares a synchronous capability that generates and does not edit', () => {
    expect(kappaImageAdapter.mode).toBe('synchronous');
    expect(kappaImageAdapter.edit).toBeUndefined();
  });

  it('translates the call into generateContent with imageConfig and returns the inlineData image', async () => {
    const result = await kappaImageAdapter.generate(callOf(), await replay(fixture('image-generate.body')));

    const [sent] = upstream.requests;
    expect(sent.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(sent.headers['x-vendor-api-key']).toBe('kappa-secret-1');
    expect(JSON.parse(sent.body.toString('utf8'))).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'a lighthouse' }] }],
      generationConfig: {
        responseModalities: ['IMAGE'],
        imageConfig: { aspectRatio: '16:9', imageSize: '2K' },
      },
    });

    expect(result.images).toHaveLength(1);
    const [image] = result.images;
    if (image.kind !== 'bytes') throw new Error('expected bytes');
    expect(image.contentType).toBe('image/png');
    // The simulator's 16:9 at 2K: 1344x768 scaled by two.
    expect(imageSize(image.bytes)).toMatchObject({ type: 'png', width: 2688, height: 1536 });
    expect(result.itemErrors).toEqual([]);
    expect(result.usage).toEqual({ images: { count: 1, size: '2K' } });
  });

  it('sends reference images as inlineData parts after the prompt, and no ratio when none was asked', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const jpeg = Buffer.from('ffd8ffe0', 'hex');
    await kappaImageAdapter.generate(
      callOf({
        aspectRatio: undefined,
        size: { kind: 'tier', tier: '1K' },
        images: [
          { kind: 'bytes', bytes: png, contentType: 'image/png' },
          { kind: 'bytes', bytes: jpeg, contentType: 'image/jpeg' },
        ],
      }),
      await replay(fixture('image-generate.body')),
    );
    expect(JSON.parse(upstream.requests[0].body.toString('utf8'))).toEqual({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'a lighthouse' },
            { inlineData: { mimeType: 'image/png', data: png.toString('base64') } },
            { inlineData: { mimeType: 'image/jpeg', data: jpeg.toString('base64') } },
          ],
        },
      ],
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: '1K' } },
    });
  });

  it('makes n calls for n images', async () => {
    const result = await kappaImageAdapter.generate(
      callOf({ n: 3 }),
      await replay(fixture('image-generate.body')),
    );
    expect(upstream.requests).toHaveLength(3);
    expect(result.images).toHaveLength(3);
    expect(result.usage).toEqual({ images: { count: 3, size: '2K' } });
  });

  describe('n > 1, where each image is its own call', () => {
    let blocking: RecordedUpstream;
    afterEach(() => blocking?.close());

    /** Sends the calls whose position is listed to the blocking upstream, the others to the imaging one. */
    const routedBy = (blockedCalls: number[]): UpstreamHttpClient => {
      let position = 0;
      return {
        request: (request) => {
          const base = blockedCalls.includes(position++) ? blocking.baseUrl : upstream.baseUrl;
          return http.request({ ...request, url: request.url.replace(upstream.baseUrl, base) });
        },
      };
    };
    const partlyBlocked = async (blockedCalls: number[]) => {
      const context = await replay(fixture('image-generate.body'));
      blocking = await startRecordedUpstream({
        [GENERATE]: { status: 200, headers: JSON_TYPE, body: fixture('image-blocked-output.body') },
      });
      return { ...context, http: routedBy(blockedCalls) };
    };

    it('returns the images of the calls that succeeded, the others as item errors', async () => {
      const result = await kappaImageAdapter.generate(callOf({ n: 3 }), await partlyBlocked([1]));
      expect(upstream.requests).toHaveLength(2);
      expect(blocking.requests).toHaveLength(1);
      expect(result.images).toHaveLength(2);
      expect(result.itemErrors).toEqual([
        {
          index: 1,
          failure: expect.objectContaining({ kind: 'content_policy', upstreamCode: 'IMAGE_SAFETY' }),
        },
      ]);
      expect(result.usage).toEqual({ images: { count: 2, size: '2K' } });
    });

    it('throws content_policy when every call was blocked', async () => {
      const error = await upstreamFailureOf(
        kappaImageAdapter.generate(callOf({ n: 2 }), await partlyBlocked([0, 1])),
      );
      expect(error.failure).toMatchObject({ kind: 'content_policy' });
    });
  });

  it('skips thought images and text parts, keeping the answer images', async () => {
    const answer = JSON.parse(fixture('image-generate.body').toString('utf8'));
    const [imagePart] = answer.candidates[0].content.parts;
    answer.candidates[0].content.parts = [
      { text: 'Here is your lighthouse.' },
      { ...imagePart, thought: true },
      imagePart,
    ];
    const result = await kappaImageAdapter.generate(callOf(), await replay(JSON.stringify(answer)));
    expect(result.images).toHaveLength(1);
  });

  describe('answers without an image', () => {
    it('is content_policy for a blocked prompt (promptFeedback, no candidates)', async () => {
      const error = await upstreamFailureOf(
        kappaImageAdapter.generate(callOf(), await replay(fixture('image-blocked-prompt.body'))),
      );
      expect(error.failure).toMatchObject({
        kind: 'content_policy',
        retryable: false,
        upstreamCode: 'SAFETY',
      });
    });

    it('is content_policy for an output withheld with IMAGE_SAFETY', async () => {
      const error = await upstreamFailureOf(
        kappaImageAdapter.generate(callOf(), await replay(fixture('image-blocked-output.body'))),
      );
      expect(error.failure).toMatchObject({
        kind: 'content_policy',
        retryable: false,
        upstreamCode: 'IMAGE_SAFETY',
      });
    });

    it('is content_policy for a SAFETY finish reason', async () => {
      const body = JSON.stringify({ candidates: [{ finishReason: 'SAFETY', index: 0 }] });
      const error = await upstreamFailureOf(kappaImageAdapter.generate(callOf(), await replay(body)));
      expect(error.failure).toMatchObject({ kind: 'content_policy', upstreamCode: 'SAFETY' });
    });

    it('is a bad_request quoting the model when it answered with text only', async () => {
      const error = await upstreamFailureOf(
        kappaImageAdapter.generate(callOf(), await replay(fixture('image-text-only.body'))),
      );
      expect(error.failure).toMatchObject({
        kind: 'bad_request',
        retryable: false,
        upstreamCode: 'NO_IMAGE',
        message: 'the model answered without an image (NO_IMAGE): I cannot draw that',
      });
    });
  });

  it('classifies an error answer with the kappa classifier', async () => {
    const error = await upstreamFailureOf(
      kappaImageAdapter.generate(callOf(), await replay(fixture('error-resource-exhausted.body'), 429)),
    );
    expect(error.failure).toMatchObject({ kind: 'rate_limit', retryable: true, httpStatus: 429 });
  });
});
