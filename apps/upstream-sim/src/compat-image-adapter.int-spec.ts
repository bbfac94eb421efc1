import {
  UpstreamError,
  type GeneratedImage,
  type ImageEditCall,
  type ImageOperation,
  type ImageRequest,
} from '@gateway/providers-core';
import { DEFAULT_COMPAT_KEY } from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import {
  generatedImageBytes,
  plannedImageCall,
  registeredSynchronousImageAdapter,
} from './testing/registered-image-adapter.util';
import { useSimulatorSession } from './testing/simulator-session';

/**
 * The compat channel type's image capability against the compat image simulator over HTTP: every
 * family's request is one the simulated upstream accepts, and the images have the size asked for. It
 * lives with the simulator app because only an app may import both the registry and the simulators.
 */
describe('compat image adapter against the simulator', () => {
  const simulator = useSimulatorSession();
  const adapter = registeredSynchronousImageAdapter('compat');
  const context = () => simulator.contextFor(DEFAULT_COMPAT_KEY);

  const callOf = (
    fields: Partial<ImageRequest> & { model: string },
    operation: ImageOperation,
  ): ImageEditCall =>
    plannedImageCall(
      adapter,
      { prompt: 'a lighthouse at dusk', responseFormat: 'url', images: [], ...fields },
      operation,
    );

  const generate = (fields: Partial<ImageRequest> & { model: string }) =>
    adapter.generate(callOf(fields, 'generate'), context());
  const edit = (fields: Partial<ImageRequest> & { model: string }) =>
    adapter.edit!(callOf(fields, 'edit'), context());

  /** The dimensions of a returned image, downloading it when the upstream gave a URL. */
  async function dimensionsOf(image: GeneratedImage): Promise<{ width?: number; height?: number }> {
    const { width, height } = imageSize(await generatedImageBytes(image));
    return { width, height };
  }

  // Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
  const png = (width: number, height: number) => ({
    kind: 'bytes' as const,
    bytes: PNG.sync.write(new PNG({ width, height }), { filterType: 0 }),
    contentType: 'image/png',
  });

  const FAMILY_REQUESTS: Array<[string, Partial<ImageRequest>, number, number]> = [
    ['img-1', { size: '1536x1024', quality: 'low' }, 1536, 1024],
    ['draw-2', { size: '512x512', n: 2 }, 512, 512],
    ['draw-3', { size: '1792x1024', quality: 'hd', style: 'natural' }, 1792, 1024],
    ['zeta-4-2-image', { ratio: '21:9' }, 3024, 1296],
    ['zeta-4-2-image', { size: '16:9', images: [png(32, 32)] }, 2560, 1440],
  ];

  it.each(FAMILY_REQUESTS)(
    '%s with %o makes %ix%i images, as URLs and as Base64',
    async (model, fields, width, height) => {
      for (const responseFormat of ['url', 'b64'] as const) {
        const result = await generate({ model, ...fields, responseFormat });
        expect(result.images).toHaveLength(fields.n ?? 1);
        for (const image of result.images) expect(await dimensionsOf(image)).toEqual({ width, height });
        expect(result.usage.images?.count).toBe(result.images.length);
      }
    },
  );

  it('gets img-* Base64 without ever sending response_format, and reads their usage and metadata', async () => {
    const result = await generate({ model: 'img-2', size: '3:2', responseFormat: 'url' });
    expect(await simulator.lastReceivedJson()).not.toHaveProperty('response_format');
    expect(result.images[0].kind).toBe('bytes');
    expect(result.metadata).toMatchObject({ size: '1536x1024', quality: 'high' });
    expect(result.usage.tokens?.outputTokens).toBeGreaterThan(0);
  });

  const PRO_PRESETS: Array<[string, number, number, string | undefined]> = [
    ['1:1', 1024, 1024, undefined],
    ['4:3', 1536, 1152, undefined],
    ['3:2', 1536, 1024, undefined],
    ['2:3', 1024, 1536, undefined],
    ['16:9', 1792, 1008, '16:9'],
    ['9:16', 1008, 1792, '9:16'],
    ['1:1(2K)', 2048, 2048, undefined],
    ['4:3(2K)', 2048, 1536, undefined],
    ['3:2(2K)', 2560, 1712, undefined],
    ['2:3(2K)', 1712, 2560, undefined],
    ['16:9(2K)', 2048, 1152, undefined],
    ['9:16(2K)', 1152, 2048, undefined],
    ['1:1(4K)', 2880, 2880, undefined],
    ['4:3(4K)', 3264, 2448, '4:3'],
    ['3:2(4K)', 3504, 2336, '3:2'],
    ['2:3(4K)', 2336, 3504, '2:3'],
    ['16:9(4K)', 3840, 2160, undefined],
    ['9:16(4K)', 2160, 3840, undefined],
  ];

  it.each(PRO_PRESETS)(
    'img-2-pro preset %s reaches the upstream as %ix%i (ratio in the prompt: %s)',
    async (size, width, height, ratio) => {
      const result = await generate({ model: 'img-2-pro', size });
      const received = await simulator.lastReceivedJson();
      expect(received.size).toBe(`${width}x${height}`);
      expect(received.prompt).toBe(
        ratio ? `a lighthouse at dusk (aspect ratio ${ratio})` : 'a lighthouse at dusk',
      );
      expect(await dimensionsOf(result.images[0])).toEqual({ width, height });
    },
  );

  it('edits with img-1: two images and a mask, uploaded as multipart the simulator accepts', async () => {
    const result = await edit({
      model: 'img-1',
      images: [png(64, 64), png(64, 64)],
      mask: png(64, 64),
      size: '1024x1536',
    });
    const { form } = await simulator.lastReceived();
    expect(form?.files.map((file) => [file.field, file.contentType])).toEqual([
      ['image[]', 'image/png'],
      ['image[]', 'image/png'],
      ['mask', 'image/png'],
    ]);
    expect(form?.fields).not.toHaveProperty('response_format');
    expect(await dimensionsOf(result.images[0])).toEqual({ width: 1024, height: 1536 });
  });

  it('edits with draw-2: one square PNG, answered in the format asked for', async () => {
    for (const responseFormat of ['url', 'b64'] as const) {
      const result = await edit({
        model: 'draw-2',
        images: [png(64, 64)],
        size: '256x256',
        responseFormat,
      });
      expect(result.images[0].kind).toBe(responseFormat === 'url' ? 'url' : 'bytes');
      expect(await dimensionsOf(result.images[0])).toEqual({ width: 256, height: 256 });
    }
  });

  it.each(['img-2', 'draw-3', 'zeta-4-2-image'])(
    'reports a blocked %s prompt as content_policy',
    async (model) => {
      const error = await generate({ model, prompt: 'a lighthouse [[sim block=prompt]]' }).catch(
        (caught) => caught,
      );
      expect(error).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).failure).toMatchObject({ kind: 'content_policy', retryable: false });
    },
  );
});
