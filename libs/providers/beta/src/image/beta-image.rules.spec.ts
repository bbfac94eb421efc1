import type { ImageRequest } from '@gateway/providers-core';
import { betaImageAdapter } from './beta-image.adapter';
import { planBetaImage, sidesAt } from './beta-image.rules';

const request = (fields: Partial<ImageRequest> = {}): ImageRequest => ({
  model: 'beta-4.0',
  prompt: 'a red kite over the sea',
  responseFormat: 'url',
  images: [],
  ...fields,
});

const planned = (fields: Partial<ImageRequest>) => {
  const plan = planBetaImage(request(fields), 'generate');
  if (!plan.ok) throw new Error(`refused: ${plan.message}`);
  return plan;
};

describe('planBetaImage', () => {
  it('asks for one image at the default 2048² (priced 2k) when nothing sizes it', () => {
    expect(planBetaImage(request(), 'generate')).toEqual({
      ok: true,
      call: { prompt: 'a red kite over the sea', n: 1, responseFormat: 'url', images: [] },
      priceTier: { size: '2k' },
      warnings: [],
    });
  });

  it.each([
    ['1024*1024', 1024, 1024, '1k'],
    ['2048*1152', 2048, 1152, '2k'],
    ['4096*4096', 4096, 4096, '4k'],
    ['1024x1536', 1024, 1536, '1k'],
  ])('reads size %s as %i×%i pixels, priced %s', (size, width, height, tier) => {
    const plan = planned({ size });
    expect(plan.call.size).toEqual({ kind: 'pixels', width, height });
    expect(plan.priceTier).toEqual({ size: tier });
  });

  it.each([
    ['1k', '16:9', 1368, 768],
    ['2k', '16:9', 2728, 1536],
    ['4k', '21:9', 6256, 2680],
    ['2k', '1:1', 2048, 2048],
  ])(
    'gives resolution %s at ratio %s as %i×%i, priced at the resolution',
    (resolution, ratio, width, height) => {
      const plan = planned({ resolution, ratio });
      expect(plan.call.size).toEqual({ kind: 'pixels', width, height });
      expect(plan.call.aspectRatio).toBe(ratio);
      expect(plan.priceTier).toEqual({ size: resolution });
    },
  );

  it('takes a ratio alone at the 2k area and a resolution alone as a square tier', () => {
    expect(planned({ ratio: '9:16' }).call.size).toEqual({ kind: 'pixels', width: 1536, height: 2728 });
    const square = planned({ resolution: '4K' });
    expect(square.call.size).toEqual({ kind: 'tier', tier: '4k' });
    expect(square.priceTier).toEqual({ size: '4k' });
  });

  it('lets size win over ratio and resolution, and says so', () => {
    const plan = planned({ size: '1024*1024', ratio: '16:9', resolution: '4k' });
    expect(plan.call.size).toEqual({ kind: 'pixels', width: 1024, height: 1024 });
    expect(plan.priceTier).toEqual({ size: '1k' });
    expect(plan.warnings).toEqual(['ratio and resolution are ignored: size gives the output dimensions']);
  });

  it('drops the fields the wire has no place for, with a warning each', () => {
    const plan = planned({ quality: 'hd', style: 'vivid', background: 'transparent' });
    expect(plan.call).not.toHaveProperty('quality');
    expect(plan.call).not.toHaveProperty('style');
    expect(plan.warnings).toEqual([
      'quality is ignored: beta-4.0 has no such option',
      'style is ignored: beta-4.0 has no such option',
      'background is ignored: beta-4.0 has no such option',
    ]);
  });

  it('keeps watermark only when the client set it', () => {
    expect(planned({ watermark: false }).call.watermark).toBe(false);
    expect(planned({}).call).not.toHaveProperty('watermark');
  });

  it('takes reference image URLs, and n 0 as 1', () => {
    const images = [{ kind: 'url' as const, url: 'https://images.test/kite.png' }];
    expect(planned({ images, n: 0, prompt: '' }).call).toMatchObject({ n: 1, images });
  });

  it.each([
    [{ n: 2 }, 'n', 'n must be 1 for beta-4.0: the upstream makes one image per task'],
    [{ size: '1024' }, 'size', 'size must be written WIDTH*HEIGHT (for example 1024*1024) for beta-4.0'],
    [
      { size: '512*512' },
      'size',
      'size must have an area between 1024*1024 and 4096*4096 pixels for beta-4.0',
    ],
    [
      { size: '8192*4096' },
      'size',
      'size must have an area between 1024*1024 and 4096*4096 pixels for beta-4.0',
    ],
    [{ size: '8192*256' }, 'size', 'size must have an aspect ratio between 1:16 and 16:1 for beta-4.0'],
    [
      { ratio: '5:4' },
      'ratio',
      'ratio must be one of 1:1, 16:9, 9:16, 4:3, 3:4, 3:2, 2:3, 21:9 for beta-4.0',
    ],
    [{ resolution: '8k' }, 'resolution', 'resolution must be one of 1k, 2k, 4k for beta-4.0'],
    [{ prompt: 'x'.repeat(801) }, 'prompt', 'prompt must be at most 800 characters for beta-4.0'],
    [{ prompt: ' ' }, 'prompt', 'prompt is required for beta-4.0 without reference images'],
    [
      { images: [{ kind: 'bytes' as const, bytes: Buffer.from('png'), contentType: 'image/png' }] },
      'image',
      'image must be a list of http(s) URLs for beta-4.0; Base64 images are not accepted',
    ],
    [
      { images: [{ kind: 'url' as const, url: 'ftp://images.test/kite.png' }] },
      'image',
      'image must be a list of http(s) URLs for beta-4.0; Base64 images are not accepted',
    ],
    [
      {
        images: Array.from({ length: 11 }, () => ({
          kind: 'url' as const,
          url: 'https://images.test/a.png',
        })),
      },
      'image',
      'image takes at most 10 URLs for beta-4.0',
    ],
  ])('refuses %j naming %s', (fields, param, message) => {
    expect(planBetaImage(request(fields), 'generate')).toEqual({ ok: false, param, message });
  });

  it('refuses edits: the wire has none', () => {
    expect(planBetaImage(request({ model: 'beta-4.5' }), 'edit')).toMatchObject({
      ok: false,
      param: 'model',
    });
  });
});

describe('sidesAt', () => {
  it.each(['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'])(
    'keeps %s within the wire area range at every tier, with sides multiple of 8',
    (ratio) => {
      for (const area of [1024 * 1024, 2048 * 2048, 4096 * 4096]) {
        const { width, height } = sidesAt(area, ratio);
        expect(width % 8).toBe(0);
        expect(height % 8).toBe(0);
        expect(width * height).toBeGreaterThanOrEqual(1024 * 1024);
        expect(width * height).toBeLessThanOrEqual(4096 * 4096);
      }
    },
  );
});

describe('betaImageAdapter.toGenerationTask', () => {
  it('builds the beta task of a planned call', () => {
    const { call } = planned({
      resolution: '1k',
      ratio: '16:9',
      watermark: false,
      images: [{ kind: 'url', url: 'https://images.test/kite.png' }],
    });
    expect(
      betaImageAdapter.toGenerationTask({ ...call, upstreamModel: 'beta-4.0' }, undefined as never),
    ).toEqual({
      upstreamModel: 'beta-4.0',
      request: {
        submission: {
          prompt: 'a red kite over the sea',
          image_urls: ['https://images.test/kite.png'],
          width: 1368,
          height: 768,
          force_single: true,
        },
        resultOptions: { logo_info: { add_logo: false } },
      },
    });
  });

  it('sends a resolution alone as the size area, and nothing for an unsized call', () => {
    const square = planned({ resolution: '4k' }).call;
    expect(
      betaImageAdapter.toGenerationTask({ ...square, upstreamModel: 'beta-4.5' }, undefined as never),
    ).toEqual({
      upstreamModel: 'beta-4.5',
      request: {
        submission: { prompt: 'a red kite over the sea', size: 16777216, force_single: true },
        resultOptions: {},
      },
    });
  });
});
