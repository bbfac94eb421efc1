import { upstreamFailureOf } from '@gateway/providers-core/testing';
import type { ImageGenerationCall, ImageRequest } from '@gateway/providers-core';
import { DEFAULT_ETA_KEY } from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import {
  generatedImageBytes,
  plannedImageCall,
  registeredSynchronousImageAdapter,
} from './testing/registered-image-adapter.util';
import { useSimulatorSession } from './testing/simulator-session';

const iotaImageAdapter = registeredSynchronousImageAdapter('eta');

const plannedCall = (fields: Partial<ImageRequest>): ImageGenerationCall =>
  plannedImageCall(iotaImageAdapter, {
    model: 'eta-iota-4-5-251128',
    prompt: 'a lighthouse at dusk',
    responseFormat: 'url',
    images: [],
    ...fields,
  });

describe('iotaImageAdapter against the eta simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_ETA_KEY) => simulator.contextFor(apiKey, directives);

  it.each([
    ['eta-iota-4-0-250828', '4:3', 2304, 1728],
    ['eta-iota-4-5-251128', '16:9', 2560, 1440],
    ['eta-iota-5-0-260128', '21:9', 3024, 1296],
    ['eta-iota-5-0-260128', '9:16', 1440, 2560],
  ])('%s at %s returns a URL to an image of %sx%s', async (model, size, width, height) => {
    const result = await iotaImageAdapter.generate(plannedCall({ model, size }), contextFor());
    expect(result.images).toHaveLength(1);
    expect(result.images[0].kind).toBe('url');
    expect(imageSize(await generatedImageBytes(result.images[0]))).toMatchObject({
      type: 'jpg',
      width,
      height,
    });
    expect(result.usage).toEqual({ images: { count: 1, size: `${width}x${height}` } });
  });

  it('returns Base64 as JPEG bytes of the asked size, with watermark false and references received', async () => {
    const reference = {
      kind: 'bytes' as const,
      bytes: PNG.sync.write(new PNG({ width: 64, height: 64 })),
      contentType: 'image/png',
    };
    const result = await iotaImageAdapter.generate(
      plannedCall({ size: '1:1', responseFormat: 'b64', watermark: false, images: [reference] }),
      contextFor(),
    );
    const [image] = result.images;
    expect(image).toMatchObject({ kind: 'bytes', contentType: 'image/jpeg' });
    expect(imageSize(await generatedImageBytes(image))).toMatchObject({ width: 2048, height: 2048 });
    expect(await simulator.lastReceivedJson()).toMatchObject({
      size: '2048x2048',
      response_format: 'b64_json',
      watermark: false,
      image: [`data:image/png;base64,${reference.bytes.toString('base64')}`],
    });
  });

  it('in group mode returns the images that succeeded and the blocked one as an item error', async () => {
    const result = await iotaImageAdapter.generate(
      plannedCall({ n: 3, size: '3:2' }),
      contextFor('block=output'),
    );
    expect(result.images).toHaveLength(2);
    for (const image of result.images)
      expect(imageSize(await generatedImageBytes(image))).toMatchObject({ width: 2496, height: 1664 });
    expect(result.itemErrors).toEqual([
      { index: 2, failure: expect.objectContaining({ kind: 'content_policy', retryable: false }) },
    ]);
    expect(result.usage).toEqual({ images: { count: 2, size: '2496x1664' } });
  });

  it.each([
    ['a blocked prompt', 'block=prompt', 'InputTextSensitiveContentDetected'],
    ['a blocked single image', 'block=output', 'OutputImageSensitiveContentDetected'],
  ])('turns %s into content_policy', async (_, directives, upstreamCode) => {
    const error = await upstreamFailureOf(iotaImageAdapter.generate(plannedCall({}), contextFor(directives)));
    expect(error.failure).toMatchObject({
      kind: 'content_policy',
      retryable: false,
      httpStatus: 400,
      upstreamCode,
    });
  });

  it('turns a wrong key into auth and a scripted rate limit into rate_limit', async () => {
    const wrongKey = await upstreamFailureOf(
      iotaImageAdapter.generate(plannedCall({}), contextFor('', 'not-the-key')),
    );
    expect(wrongKey.failure).toMatchObject({ kind: 'auth', httpStatus: 401 });
    const limited = await upstreamFailureOf(
      iotaImageAdapter.generate(plannedCall({}), contextFor('error=rate_limit;retry_after=2')),
    );
    expect(limited.failure).toMatchObject({ kind: 'rate_limit', retryable: true, retryAfterMs: 2000 });
  });
});
