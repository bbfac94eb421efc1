import type { GeneratedImage, ImageGenerationCall, ImageRequest } from '@gateway/providers-core';
import { upstreamFailureOf } from '@gateway/providers-core/testing';
import { DEFAULT_KAPPA_KEY } from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import { plannedImageCall, registeredSynchronousImageAdapter } from './testing/registered-image-adapter.util';
import { useSimulatorSession } from './testing/simulator-session';

const kappaImageAdapter = registeredSynchronousImageAdapter('kappa');

const plannedCall = (fields: Partial<ImageRequest>): ImageGenerationCall =>
  plannedImageCall(kappaImageAdapter, {
    model: 'kappa-3-pro-image-preview',
    prompt: 'a lighthouse at dusk',
    responseFormat: 'b64',
    images: [],
    ...fields,
  });

function bytesOf(image: GeneratedImage): Buffer {
  if (image.kind !== 'bytes') throw new Error('kappa answers inlineData, never URLs');
  return image.bytes;
}

describe('kappaImageAdapter against the kappa simulator', () => {
  const simulator = useSimulatorSession();
  const contextFor = (directives = '', apiKey = DEFAULT_KAPPA_KEY) =>
    simulator.contextFor(apiKey, directives);

  // The simulator's sizes: 1:1 is 1024x1024, 16:9 1344x768, 9:16 768x1344 at 1K; 2K doubles both sides.
  it.each([
    ['kappa-3-pro-image-preview', { size: '16:9', resolution: '2K' }, '2K', 2688, 1536],
    ['kappa-3-pro-image-preview', { size: '1:1' }, '1K', 1024, 1024],
    ['kappa-2.5-flash-image-preview', { ratio: '9:16' }, '1K', 768, 1344],
    ['kappa-3.1-flash-image-preview', { size: '16:9', resolution: '2K' }, '1K', 1344, 768],
  ])('%s with %j returns a PNG at %s of %sx%s', async (model, fields, tier, width, height) => {
    const result = await kappaImageAdapter.generate(plannedCall({ model, ...fields }), contextFor());
    expect(result.images).toHaveLength(1);
    expect(result.images[0]).toMatchObject({ kind: 'bytes', contentType: 'image/png' });
    expect(imageSize(bytesOf(result.images[0]))).toMatchObject({ type: 'png', width, height });
    expect(result.usage).toEqual({ images: { count: 1, size: tier } });
    expect(await simulator.lastReceivedJson()).toMatchObject({
      generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: tier } },
    });
  });

  it('sends reference images as inlineData parts and returns n images from n calls', async () => {
    const reference = PNG.sync.write(new PNG({ width: 32, height: 32 }));
    const result = await kappaImageAdapter.generate(
      plannedCall({ n: 2, images: [{ kind: 'bytes', bytes: reference, contentType: 'image/png' }] }),
      contextFor(),
    );
    expect(result.images).toHaveLength(2);
    expect(result.usage.images?.count).toBe(2);
    expect(await simulator.lastReceivedJson()).toMatchObject({
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'a lighthouse at dusk' },
            { inlineData: { mimeType: 'image/png', data: reference.toString('base64') } },
          ],
        },
      ],
    });
  });

  it.each([
    ['a blocked prompt', 'block=prompt', 'SAFETY'],
    ['an image withheld for safety', 'block=output;finish=IMAGE_SAFETY', 'IMAGE_SAFETY'],
    ['an output withheld for safety', 'block=output', 'SAFETY'],
  ])('turns %s into content_policy', async (_, directives, upstreamCode) => {
    const error = await upstreamFailureOf(
      kappaImageAdapter.generate(plannedCall({}), contextFor(directives)),
    );
    expect(error.failure).toMatchObject({ kind: 'content_policy', retryable: false, upstreamCode });
  });

  it('turns a wrong key into auth', async () => {
    const error = await upstreamFailureOf(
      kappaImageAdapter.generate(plannedCall({}), contextFor('', 'not-the-key')),
    );
    expect(error.failure).toMatchObject({ kind: 'auth', httpStatus: 400, upstreamCode: 'API_KEY_INVALID' });
  });
});
