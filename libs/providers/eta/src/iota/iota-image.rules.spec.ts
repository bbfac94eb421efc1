import type { ImageInput, ImagePlan, ImageRequest } from '@gateway/providers-core';
import { iotaImageRules } from './iota-image.rules';

const V4_0 = 'eta-iota-4-0-250828';
const V4_5 = 'eta-iota-4-5-251128';
const V5_0 = 'eta-iota-5-0-260128';
const OFFERED = '1:1, 16:9, 9:16, 4:3, 3:4, 3:2, 2:3, 21:9';

const reference: ImageInput = { kind: 'bytes', bytes: Buffer.from('png'), contentType: 'image/png' };
const references = (count: number): ImageInput[] => Array.from({ length: count }, () => reference);

const plan = (fields: Partial<ImageRequest>, operation: 'generate' | 'edit' = 'generate'): ImagePlan =>
  iotaImageRules.plan(
    { model: V4_0, prompt: 'a lighthouse', responseFormat: 'url', images: [], ...fields },
    operation,
  );

function accepted(result: ImagePlan): Extract<ImagePlan, { ok: true }> {
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result;
}

describe('iotaImageRules', () => {
  describe('aspect ratios', () => {
    it.each([
      ['1:1', '2048x2048'],
      ['16:9', '2560x1440'],
      ['9:16', '1440x2560'],
      ['4:3', '2304x1728'],
      ['3:4', '1728x2304'],
      ['3:2', '2496x1664'],
      ['2:3', '1664x2496'],
      ['21:9', '3024x1296'],
    ])('sends %s as %s on every model, in size or in ratio, priced by those pixels', (ratio, pixels) => {
      const [width, height] = pixels.split('x').map(Number);
      for (const model of [V4_0, V4_5, V5_0]) {
        for (const fields of [{ size: ratio }, { ratio }]) {
          const result = accepted(plan({ model, ...fields }));
          expect(result.call.size).toEqual({ kind: 'pixels', width, height });
          expect(result.priceTier).toEqual({ size: pixels });
          expect(result.warnings).toEqual([]);
        }
      }
    });

    it.each(['5:4', '4:5', '2:1', '1:2', '9:21'])('refuses the ratio %s naming the offered ones', (ratio) => {
      expect(plan({ size: ratio })).toEqual({
        ok: false,
        param: 'size',
        message: expect.stringContaining(`size must be one of ${OFFERED}, 1K, 2K, 4K, or WIDTHxHEIGHT`),
      });
      expect(plan({ ratio })).toEqual({
        ok: false,
        param: 'ratio',
        message: `ratio must be one of ${OFFERED} for ${V4_0}`,
      });
    });

    it('takes size over ratio when both are given, and says so', () => {
      const result = accepted(plan({ size: '9:16', ratio: '16:9' }));
      expect(result.call.size).toEqual({ kind: 'pixels', width: 1440, height: 2560 });
      expect(result.warnings).toEqual(['ratio 16:9 was ignored because size was given']);
    });
  });

  describe('explicit sizes', () => {
    it('sends the wire default 2048x2048 explicitly when nothing is asked', () => {
      const result = accepted(plan({}));
      expect(result.call.size).toEqual({ kind: 'pixels', width: 2048, height: 2048 });
      expect(result.priceTier).toEqual({ size: '2048x2048' });
    });

    it.each([
      [V4_0, '1280x720', true],
      [V4_0, '1279x720', false],
      [V4_5, '1280x720', false],
      [V4_5, '2560x1440', true],
      [V5_0, '1920x1920', true],
      [V5_0, '1919x1920', false],
      [V4_0, '4096x4096', true],
      [V4_0, '4096x4097', false],
      [V4_0, '4096x256', true],
      [V4_0, '4113x257', false],
      [V4_0, '256x4096', true],
    ])('%s with %s: accepted %s (area and 1:16 … 16:1 of §6.3)', (model, size, ok) => {
      const result = plan({ model, size });
      if (ok) {
        expect(accepted(result).priceTier).toEqual({ size });
      } else {
        expect(result).toEqual({
          ok: false,
          param: 'size',
          message: expect.stringContaining(`for ${model}`),
        });
      }
    });

    it('names the model own keywords and area range when it refuses a size', () => {
      expect(plan({ model: V4_5, size: '1024x1024' })).toEqual({
        ok: false,
        param: 'size',
        message:
          `size must be one of ${OFFERED}, 2K, 4K, or WIDTHxHEIGHT of 3686400 to 16777216 pixels ` +
          `with an aspect ratio from 1:16 to 16:1, for ${V4_5}`,
      });
      expect(plan({ size: 'big' })).toMatchObject({ ok: false, param: 'size' });
    });

    it('sends a keyword as the square it stands for, where the model takes the keyword', () => {
      expect(accepted(plan({ size: '1k' })).call.size).toEqual({ kind: 'pixels', width: 1024, height: 1024 });
      expect(accepted(plan({ model: V4_5, size: '4K' })).priceTier).toEqual({ size: '4096x4096' });
      expect(plan({ model: V4_5, size: '1K' })).toMatchObject({ ok: false, param: 'size' });
    });
  });

  describe('n and references', () => {
    it.each([
      [undefined, 1],
      [0, 1],
      [1, 1],
      [15, 15],
    ])('takes n = %s as %s', (n, expected) => {
      expect(accepted(plan({ n })).call.n).toBe(expected);
    });

    it.each([16, -1, 1.5])('refuses n = %s naming the bound', (n) => {
      expect(plan({ n })).toEqual({
        ok: false,
        param: 'n',
        message: `n must be an integer from 1 to 15 for ${V4_0}`,
      });
    });

    it('shares the 15 images of a request between references and outputs', () => {
      expect(accepted(plan({ n: 12, images: references(3) })).call.n).toBe(12);
      expect(plan({ n: 13, images: references(3) })).toEqual({
        ok: false,
        param: 'n',
        message: `n must be an integer from 1 to 12 for ${V4_0} with 3 reference images (references and images together at most 15)`,
      });
    });

    it.each([
      [V4_0, 10],
      [V4_5, 14],
      [V5_0, 14],
    ])('lets %s take %s references and no more', (model, most) => {
      expect(accepted(plan({ model, images: references(most) })).call.images).toHaveLength(most);
      expect(plan({ model, images: references(most + 1) })).toEqual({
        ok: false,
        param: 'image',
        message: `image takes at most ${most} reference images for ${model}`,
      });
    });
  });

  describe('other fields', () => {
    it('passes watermark only when the client set it, and the response format as asked', () => {
      expect(accepted(plan({})).call).not.toHaveProperty('watermark');
      expect(accepted(plan({ watermark: false })).call.watermark).toBe(false);
      expect(accepted(plan({ watermark: true })).call.watermark).toBe(true);
      expect(accepted(plan({ responseFormat: 'b64' })).call.responseFormat).toBe('b64');
    });

    it('drops quality, style and background with a warning each', () => {
      const result = accepted(plan({ quality: 'hd', style: 'vivid', background: 'transparent' }));
      expect(result.call).not.toHaveProperty('quality');
      expect(result.call).not.toHaveProperty('style');
      expect(result.call).not.toHaveProperty('background');
      expect(result.warnings).toEqual([
        `quality was ignored: ${V4_0} has no such option`,
        `style was ignored: ${V4_0} has no such option`,
        `background was ignored: ${V4_0} has no such option`,
      ]);
    });

    it('refuses edits, which the wire does not have', () => {
      expect(plan({ images: references(1) }, 'edit')).toEqual({
        ok: false,
        param: 'model',
        message: `${V4_0} has no image edits; send the images to change in image to /v1/images/generations`,
      });
    });

    it('lets a model without rules pass its size as sent, within the wire bound on n', () => {
      const model = 'eta-iota-9-0-270101';
      expect(accepted(plan({ model, size: '5:4' })).call.size).toEqual({ kind: 'tier', tier: '5:4' });
      expect(accepted(plan({ model, size: '640x480' })).priceTier).toEqual({ size: '640x480' });
      expect(accepted(plan({ model, size: '16:9' })).priceTier).toEqual({ size: '2560x1440' });
      expect(plan({ model, n: 16 })).toMatchObject({ ok: false, param: 'n' });
    });
  });
});
