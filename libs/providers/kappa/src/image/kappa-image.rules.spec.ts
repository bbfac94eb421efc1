import type { ImageInput, ImagePlan, ImageRequest } from '@gateway/providers-core';
import { kappaImageRules } from './kappa-image.rules';

const PRO = 'kappa-3-pro-image-preview';
const FLASH_2_5 = 'kappa-2.5-flash-image-preview';
const FLASH_3_1 = 'kappa-3.1-flash-image-preview';
const MODELS = [PRO, FLASH_2_5, FLASH_3_1];

const plan = (fields: Partial<ImageRequest>, operation: 'generate' | 'edit' = 'generate'): ImagePlan =>
  kappaImageRules.plan(
    { model: PRO, prompt: 'a lighthouse', responseFormat: 'url', images: [], ...fields },
    operation,
  );

function accepted(result: ImagePlan): Extract<ImagePlan, { ok: true }> {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
}

describe('kappaImageRules', () => {
  describe('aspect ratios', () => {
    it.each(['1:1', '16:9', '9:16'])(
      'sends the offered ratio %s, from size or ratio, on every model',
      (ratio) => {
        for (const model of MODELS) {
          for (const fields of [{ size: ratio }, { ratio }]) {
            const result = accepted(plan({ model, ...fields }));
            expect(result.call.aspectRatio).toBe(ratio);
            expect(result.warnings).toEqual([]);
          }
        }
      },
    );

    it.each(['4:3', '3:4', '3:2', '2:3', '21:9', '4:5', '5:4'])(
      'refuses %s, which is not offered for kappa, naming the offered ratios',
      (ratio) => {
        for (const model of MODELS) {
          expect(plan({ model, ratio })).toEqual({
            ok: false,
            param: 'ratio',
            message: `ratio must be one of 1:1, 16:9, 9:16 for ${model}`,
          });
          expect(plan({ model, size: ratio })).toEqual({
            ok: false,
            param: 'size',
            message: expect.stringMatching(
              new RegExp(`^size must be one of 1:1, 16:9, 9:16, 1K.* for ${model}$`),
            ),
          });
        }
      },
    );

    it('sends no ratio when none is asked (the upstream default is square)', () => {
      expect(accepted(plan({})).call).not.toHaveProperty('aspectRatio');
    });

    it('reads WIDTHxHEIGHT as its ratio, says so, and refuses one of a ratio not offered', () => {
      const result = accepted(plan({ size: '1920x1080' }));
      expect(result.call.aspectRatio).toBe('16:9');
      expect(result.warnings).toEqual([
        `size 1920x1080 was sent as aspect ratio 16:9: ${PRO} takes a ratio and a size tier`,
      ]);
      expect(plan({ size: '1536x1024' })).toMatchObject({ ok: false, param: 'size' });
      expect(plan({ size: 'square' })).toMatchObject({ ok: false, param: 'size' });
    });

    it('takes the ratio of size over ratio when both say one', () => {
      const result = accepted(plan({ size: '9:16', ratio: '16:9' }));
      expect(result.call.aspectRatio).toBe('9:16');
      expect(result.warnings).toEqual(['ratio 16:9 was ignored because size was given']);
    });
  });

  describe('size tiers', () => {
    it.each([
      [PRO, undefined, '1K'],
      [PRO, '1K', '1K'],
      [PRO, '2k', '2K'],
      [FLASH_2_5, '1K', '1K'],
      [FLASH_3_1, undefined, '1K'],
    ])('%s with resolution %s sends and prices %s', (model, resolution, tier) => {
      const result = accepted(plan({ model, resolution }));
      expect(result.call.size).toEqual({ kind: 'tier', tier });
      expect(result.priceTier).toEqual({ size: tier });
      expect(result.warnings).toEqual([]);
    });

    it('takes a tier keyword given in size', () => {
      expect(accepted(plan({ size: '2K' })).priceTier).toEqual({ size: '2K' });
    });

    it.each(['4K', '8K', 'hd'])('refuses %s on the pro model, naming 1K and 2K', (resolution) => {
      expect(plan({ resolution })).toEqual({
        ok: false,
        param: 'resolution',
        message: `resolution must be one of 1K, 2K for ${PRO}`,
      });
    });

    it('refuses 4K asked in size on the pro model under the size field', () => {
      expect(plan({ size: '4K' })).toEqual({
        ok: false,
        param: 'size',
        message: `size must be one of 1K, 2K for ${PRO}`,
      });
    });

    it.each([
      [FLASH_2_5, '2K'],
      [FLASH_3_1, '4K'],
    ])('falls %s back to 1K from %s, with a warning', (model, resolution) => {
      const result = accepted(plan({ model, resolution }));
      expect(result.call.size).toEqual({ kind: 'tier', tier: '1K' });
      expect(result.priceTier).toEqual({ size: '1K' });
      expect(result.warnings).toEqual([`${model} generates 1K images only; ${resolution} fell back to 1K`]);
    });
  });

  describe('n, references and other fields', () => {
    it.each([
      [undefined, 1],
      [0, 1],
      [4, 4],
    ])('takes n = %s as %s', (n, expected) => {
      expect(accepted(plan({ n })).call.n).toBe(expected);
    });

    it.each([5, -1, 2.5])('refuses n = %s naming the bound', (n) => {
      expect(plan({ n })).toEqual({
        ok: false,
        param: 'n',
        message: `n must be an integer from 1 to 4 for ${PRO}`,
      });
    });

    it('takes reference images as bytes and refuses URLs, which have no inlineData form', () => {
      const bytes: ImageInput = { kind: 'bytes', bytes: Buffer.from('png'), contentType: 'image/png' };
      expect(accepted(plan({ images: [bytes, bytes] })).call.images).toEqual([bytes, bytes]);
      expect(plan({ images: [{ kind: 'url', url: 'https://images.example/a.png' }] })).toEqual({
        ok: false,
        param: 'image',
        message: `image must be Base64 image data for ${PRO}`,
      });
    });

    it('drops quality, style, background and watermark with a warning each', () => {
      const result = accepted(
        plan({ quality: 'hd', style: 'vivid', background: 'opaque', watermark: false }),
      );
      expect(result.call).not.toHaveProperty('watermark');
      expect(result.warnings).toEqual(
        ['quality', 'style', 'background', 'watermark'].map(
          (field) => `${field} was ignored: ${PRO} has no such option`,
        ),
      );
    });

    it('refuses edits', () => {
      expect(plan({}, 'edit')).toMatchObject({ ok: false, param: 'model' });
    });

    it('lets a kappa model without rules take any ratio and any tier of the wire', () => {
      const result = accepted(plan({ model: 'kappa-4-image', ratio: '4:3', resolution: '4K' }));
      expect(result.call).toMatchObject({ aspectRatio: '4:3', size: { kind: 'tier', tier: '4K' } });
      expect(plan({ model: 'kappa-4-image', resolution: '8K' })).toMatchObject({
        ok: false,
        param: 'resolution',
      });
    });
  });
});
