import type { ImageOperation, ImagePlan, ImageRequest } from '@gateway/providers-core';
import { jpegInput, pngBytes, pngInput, urlInput } from '../testing/image-inputs';
import { compatImageRules } from './compat-image.rules';

type Accepted = Extract<ImagePlan, { ok: true }>;

const requestOf = (fields: Partial<ImageRequest> & { model: string }): ImageRequest => ({
  prompt: 'a lighthouse at dusk',
  responseFormat: 'url',
  images: [],
  ...fields,
});

const planOf = (fields: Partial<ImageRequest> & { model: string }, operation: ImageOperation = 'generate') =>
  compatImageRules.plan(requestOf(fields), operation);

function accepted(fields: Partial<ImageRequest> & { model: string }, operation?: ImageOperation): Accepted {
  const plan = planOf(fields, operation);
  if (!plan.ok) throw new Error(`refused: ${plan.param}: ${plan.message}`);
  return plan;
}

const pixels = (width: number, height: number) => ({ kind: 'pixels', width, height });

describe('compatImageRules', () => {
  describe('n', () => {
    it.each([undefined, 0])('reads n=%s as 1', (n) => {
      expect(accepted({ model: 'draw-3', n }).call.n).toBe(1);
    });

    it.each([
      ['draw-3', 2, 'n must be 1 for draw-3'],
      ['draw-2', 11, 'n must be between 1 and 10 for draw-2'],
      ['img-1', 11, 'n must be between 1 and 10 for img-1'],
      ['img-2', 11, 'n must be between 1 and 10 for img-2'],
      ['img-2-pro', 11, 'n must be between 1 and 10 for img-2-pro'],
      ['img-1', -1, 'n must be between 1 and 10 for img-1'],
      ['img-1', 1.5, 'n must be between 1 and 10 for img-1'],
      ['zeta-4-2-image', -2, 'n must be a positive integer for zeta-4-2-image'],
    ])('refuses %s with n=%s naming the bound', (model, n, message) => {
      expect(planOf({ model, n })).toEqual({ ok: false, param: 'n', message });
    });

    it.each([
      ['draw-2', 10],
      ['img-2-pro', 10],
      ['zeta-4-2-image', 40],
    ])('accepts %s with n=%i', (model, n) => {
      expect(accepted({ model, n }).call.n).toBe(n);
    });
  });

  describe('draw sizes', () => {
    const DRAW_2_REFUSAL = 'size must be one of 256x256, 512x512, 1024x1024 for draw-2';
    const DRAW_3_REFUSAL = 'size must be one of 1024x1024, 1024x1792, 1792x1024 for draw-3';

    it.each(['1024x1792', '1792x1024', '2048x2048', '1536x1024', '128x128', 'auto', '1:1', '1024X1024', ''])(
      'refuses draw-2 size %p naming the allowed sizes',
      (size) => {
        expect(planOf({ model: 'draw-2', size })).toEqual({
          ok: false,
          param: 'size',
          message: DRAW_2_REFUSAL,
        });
      },
    );

    it.each(['256x256', '512x512', '1536x1024', '1024x1536', '2048x2048', 'auto', '16:9', 'hd'])(
      'refuses draw-3 size %p naming the allowed sizes',
      (size) => {
        expect(planOf({ model: 'draw-3', size })).toEqual({
          ok: false,
          param: 'size',
          message: DRAW_3_REFUSAL,
        });
      },
    );

    it.each([
      ['draw-2', '256x256', 256, 256],
      ['draw-2', '512x512', 512, 512],
      ['draw-2', '1024x1024', 1024, 1024],
      ['draw-3', '1024x1024', 1024, 1024],
      ['draw-3', '1024x1792', 1024, 1792],
      ['draw-3', '1792x1024', 1792, 1024],
    ])('sends %s size %s as it is', (model, size, width, height) => {
      const plan = accepted({ model, size });
      expect(plan.call.size).toEqual(pixels(width, height));
      expect(plan.warnings).toEqual([]);
    });

    it('sends the draw default size explicitly, so the tier is the size made', () => {
      expect(accepted({ model: 'draw-2' }).call.size).toEqual(pixels(1024, 1024));
      expect(accepted({ model: 'draw-2' }).priceTier).toEqual({ size: '1024x1024' });
    });
  });

  describe('quality and price tier', () => {
    it('defaults draw-3 to standard and takes hd', () => {
      expect(accepted({ model: 'draw-3' }).priceTier).toEqual({ size: '1024x1024', quality: 'standard' });
      const hd = accepted({ model: 'draw-3', size: '1792x1024', quality: 'hd' });
      expect(hd.call.quality).toBe('hd');
      expect(hd.priceTier).toEqual({ size: '1792x1024', quality: 'hd' });
    });

    it('defaults img-1 to auto; a size the upstream picks has no size tier', () => {
      const plan = accepted({ model: 'img-1' });
      expect(plan.call).toMatchObject({ quality: 'auto' });
      expect(plan.call.size).toBeUndefined();
      expect(plan.priceTier).toEqual({ quality: 'auto' });
      expect(accepted({ model: 'img-1', size: 'auto' }).call.size).toEqual({ kind: 'tier', tier: 'auto' });
      expect(accepted({ model: 'img-1', size: '1536x1024', quality: 'low' }).priceTier).toEqual({
        size: '1536x1024',
        quality: 'low',
      });
    });

    it.each([
      ['draw-3', 'high', 'quality must be one of standard, hd for draw-3'],
      ['img-1', 'hd', 'quality must be one of low, medium, high, auto for img-1'],
      ['img-2-pro', 'standard', 'quality must be one of low, medium, high, auto for img-2-pro'],
    ])('refuses %s quality %s', (model, quality, message) => {
      expect(planOf({ model, quality })).toEqual({ ok: false, param: 'quality', message });
    });

    it.each(['draw-2', 'zeta-4-2-image'])(
      'drops quality for %s, whose wire has none, with a warning',
      (model) => {
        const plan = accepted({ model, quality: 'hd' });
        expect(plan.call.quality).toBeUndefined();
        expect(plan.priceTier.quality).toBeUndefined();
        expect(plan.warnings).toContain(`quality is not a field of ${model} and was dropped`);
      },
    );

    it('refuses img-1 sizes off its list', () => {
      expect(planOf({ model: 'img-1', size: '16:9' })).toEqual({
        ok: false,
        param: 'size',
        message: 'size must be one of 1024x1024, 1536x1024, 1024x1536, auto for img-1',
      });
    });
  });

  describe('img-2 and img-2-pro presets', () => {
    const NATIVE: Array<[string, number, number]> = [
      ['1:1', 1024, 1024],
      ['4:3', 1536, 1152],
      ['3:2', 1536, 1024],
      ['2:3', 1024, 1536],
    ];
    const NATIVE_PRO_ONLY: Array<[string, number, number]> = [
      ['1:1(2K)', 2048, 2048],
      ['4:3(2K)', 2048, 1536],
      ['3:2(2K)', 2560, 1712],
      ['2:3(2K)', 1712, 2560],
      ['16:9(2K)', 2048, 1152],
      ['9:16(2K)', 1152, 2048],
      ['1:1(4K)', 2880, 2880],
      ['16:9(4K)', 3840, 2160],
      ['9:16(4K)', 2160, 3840],
    ];
    /** Preset, its target, the ratio written into the prompt, and the size sent instead. */
    const FALLING_BACK: Array<[string, string, string, number, number]> = [
      ['16:9', '1920x1080', '16:9', 1792, 1008],
      ['9:16', '1080x1920', '9:16', 1008, 1792],
    ];
    const FALLING_BACK_PRO_ONLY: Array<[string, string, string, number, number]> = [
      ['4:3(4K)', '3840x2880', '4:3', 3264, 2448],
      ['3:2(4K)', '3840x2560', '3:2', 3504, 2336],
      ['2:3(4K)', '2560x3840', '2:3', 2336, 3504],
    ];

    describe.each([
      ['img-2', NATIVE, FALLING_BACK],
      ['img-2-pro', [...NATIVE, ...NATIVE_PRO_ONLY], [...FALLING_BACK, ...FALLING_BACK_PRO_ONLY]],
    ] as const)('%s', (model, native, fallingBack) => {
      it.each(native)('sends preset %s as %ix%i, prompt untouched, no warning', (size, width, height) => {
        const plan = accepted({ model, size });
        expect(plan.call.size).toEqual(pixels(width, height));
        expect(plan.call.prompt).toBe('a lighthouse at dusk');
        expect(plan.warnings).toEqual([]);
        expect(plan.priceTier).toEqual({ size: `${width}x${height}`, quality: 'auto' });
      });

      it.each(fallingBack)(
        'sends preset %s (%s) as the closest valid size, with its ratio in the prompt and a warning',
        (size, target, ratio, width, height) => {
          const plan = accepted({ model, size });
          expect(plan.call.size).toEqual(pixels(width, height));
          expect(plan.call.prompt).toBe(`a lighthouse at dusk (aspect ratio ${ratio})`);
          expect(plan.warnings).toEqual([
            `size ${size} (${target}) is not a native ${model} size: sent ${width}x${height} and asked for aspect ratio ${ratio} in the prompt`,
          ]);
          expect(plan.priceTier.size).toBe(`${width}x${height}`);
        },
      );
    });

    it('reads a preset written with a space and a lower-case k', () => {
      expect(accepted({ model: 'img-2-pro', size: '16:9 (4k)' }).call.size).toEqual(pixels(3840, 2160));
    });

    it('refuses the (2K) and (4K) presets on img-2, naming its presets', () => {
      expect(planOf({ model: 'img-2', size: '16:9(2K)' })).toEqual({
        ok: false,
        param: 'size',
        message: 'size must be auto, WIDTHxHEIGHT or one of 1:1, 4:3, 3:2, 2:3, 16:9, 9:16 for img-2',
      });
    });

    it('sends a valid WxH as it is and falls back for an invalid one, with the reduced ratio', () => {
      expect(accepted({ model: 'img-2', size: '1280x720' }).call.size).toEqual(pixels(1280, 720));
      const plan = accepted({ model: 'img-2', size: '1000x750' });
      expect(plan.call.size).toEqual(pixels(960, 720));
      expect(plan.call.prompt).toBe('a lighthouse at dusk (aspect ratio 4:3)');
      expect(plan.warnings).toEqual([
        'size 1000x750 is not a native img-2 size: sent 960x720 and asked for aspect ratio 4:3 in the prompt',
      ]);
    });

    it('passes auto and refuses words it does not know', () => {
      expect(accepted({ model: 'img-2', size: 'auto' }).call.size).toEqual({ kind: 'tier', tier: 'auto' });
      expect(planOf({ model: 'img-2', size: 'huge' })).toMatchObject({ ok: false, param: 'size' });
    });
  });

  describe('zeta-4-2-image ratios', () => {
    const RATIOS: Array<[string, number, number]> = [
      ['1:1', 2048, 2048],
      ['16:9', 2560, 1440],
      ['9:16', 1440, 2560],
      ['4:3', 2304, 1728],
      ['3:4', 1728, 2304],
      ['3:2', 2496, 1664],
      ['2:3', 1664, 2496],
      ['21:9', 3024, 1296],
    ];

    it.each(RATIOS)('maps ratio %s to %ix%i, from ratio or from size', (ratio, width, height) => {
      for (const fields of [{ ratio }, { size: ratio }]) {
        const plan = accepted({ model: 'zeta-4-2-image', ...fields });
        expect(plan.call.size).toEqual(pixels(width, height));
        expect(plan.priceTier).toEqual({ size: `${width}x${height}` });
        expect(plan.warnings).toEqual([]);
      }
    });

    it.each([
      [{ ratio: '5:4' }, 'ratio'],
      [{ size: '5:4' }, 'size'],
      [{ ratio: '1:2' }, 'ratio'],
    ])('refuses %o naming the ratios offered', (fields, param) => {
      expect(planOf({ model: 'zeta-4-2-image', ...fields })).toEqual({
        ok: false,
        param,
        message: `${param} must be one of 1:1, 16:9, 9:16, 4:3, 3:4, 3:2, 2:3, 21:9 for zeta-4-2-image`,
      });
    });

    it('passes the relay its own sizes, and lets ratio win over size with a warning', () => {
      expect(accepted({ model: 'zeta-4-2-image', size: '1024x1024' }).call.size).toEqual(pixels(1024, 1024));
      expect(accepted({ model: 'zeta-4-2-image', size: '16:9(2K)' }).call.size).toEqual({
        kind: 'tier',
        tier: '16:9(2K)',
      });
      const plan = accepted({ model: 'zeta-4-2-image', size: '1024x1024', ratio: '16:9' });
      expect(plan.call.size).toEqual(pixels(2560, 1440));
      expect(plan.warnings).toEqual(['size 1024x1024 was dropped: ratio 16:9 sets the size']);
    });

    it('drops ratio for families that take a size, with a warning', () => {
      const plan = accepted({ model: 'img-2', ratio: '16:9' });
      expect(plan.call.size).toBeUndefined();
      expect(plan.warnings).toEqual(['ratio is not a field of img-2 and was dropped; size sets the shape']);
    });
  });

  describe('prompt', () => {
    it.each([
      ['draw-2', 1000],
      ['draw-3', 4000],
      ['img-1', 32_000],
      ['img-2-pro', 32_000],
    ])('bounds %s prompts at %i characters', (model, max) => {
      expect(accepted({ model, prompt: 'x'.repeat(max) }).call.prompt).toHaveLength(max);
      expect(planOf({ model, prompt: 'x'.repeat(max + 1) })).toEqual({
        ok: false,
        param: 'prompt',
        message: `prompt must be at most ${max} characters for ${model}`,
      });
    });

    it('counts the aspect-ratio note a fallback adds', () => {
      const note = ' (aspect ratio 16:9)';
      expect(planOf({ model: 'img-2', size: '16:9', prompt: 'x'.repeat(32_000 - note.length + 1) })).toEqual({
        ok: false,
        param: 'prompt',
        message: `prompt must be at most ${32_000 - note.length} characters for img-2 with this size: the size falls back and the prompt gets "(aspect ratio 16:9)"`,
      });
    });

    it('takes long zeta prompts and refuses an empty prompt', () => {
      expect(accepted({ model: 'zeta-4-2-image', prompt: 'x'.repeat(50_000) }).call.prompt).toHaveLength(
        50_000,
      );
      expect(planOf({ model: 'zeta-4-2-image', prompt: '  ' })).toEqual({
        ok: false,
        param: 'prompt',
        message: 'prompt is required',
      });
    });
  });

  describe('response_format, style, background, watermark', () => {
    it.each(['img-1', 'img-2', 'draw-2', 'zeta-4-2-image'])('keeps the format %s clients want', (model) => {
      expect(accepted({ model, responseFormat: 'b64' }).call.responseFormat).toBe('b64');
      expect(accepted({ model, responseFormat: 'url' }).call.responseFormat).toBe('url');
    });

    it('passes style to draw-3 unchanged and drops it elsewhere with a warning', () => {
      const plan = accepted({ model: 'draw-3', style: 'natural' });
      expect(plan.call.style).toBe('natural');
      expect(plan.warnings).toEqual([]);
      for (const model of ['img-1', 'img-2', 'draw-2', 'zeta-4-2-image']) {
        const dropped = accepted({ model, style: 'vivid' });
        expect(dropped.call.style).toBeUndefined();
        expect(dropped.warnings).toEqual([`style is not a field of ${model} and was dropped`]);
      }
    });

    it('passes background to img-* unchanged and drops it elsewhere with a warning', () => {
      for (const model of ['img-1', 'img-2', 'img-2-pro']) {
        expect(accepted({ model, background: 'transparent' }).call.background).toBe('transparent');
      }
      for (const model of ['draw-2', 'draw-3', 'zeta-4-2-image']) {
        const dropped = accepted({ model, background: 'transparent' });
        expect(dropped.call.background).toBeUndefined();
        expect(dropped.warnings).toEqual([`background is not a field of ${model} and was dropped`]);
      }
    });

    it('warns that watermark: false cannot be sent, and sends nothing either way', () => {
      const off = accepted({ model: 'img-1', watermark: false });
      expect(off.call.watermark).toBeUndefined();
      expect(off.warnings).toEqual([
        'watermark: img-1 has no watermark setting on its wire; nothing was sent',
      ]);
      expect(accepted({ model: 'img-1', watermark: true }).warnings).toEqual([]);
    });

    it('drops resolution with a warning', () => {
      expect(accepted({ model: 'draw-3', resolution: '2k' }).warnings).toEqual([
        'resolution is not a field of draw-3 and was dropped',
      ]);
    });
  });

  describe('reference images on generations', () => {
    it.each(['img-2', 'img-2-pro', 'zeta-4-2-image'])('takes Base64 references for %s', (model) => {
      const images = [pngInput(64, 64), jpegInput(32, 16)];
      expect(accepted({ model, images }).call.images).toEqual(images);
    });

    it.each(['img-2', 'img-2-pro', 'zeta-4-2-image'])(
      'refuses URL references for %s: Base64 is required',
      (model) => {
        expect(planOf({ model, images: [pngInput(64, 64), urlInput()] })).toEqual({
          ok: false,
          param: 'image',
          message: `image must be Base64 for ${model}: URL references are not supported`,
        });
      },
    );

    it.each([
      ['img-1', 'img-1 takes no reference images on generations (use /v1/images/edits)'],
      ['draw-2', 'draw-2 takes no reference images on generations (use /v1/images/edits)'],
      ['draw-3', 'draw-3 takes no reference images on generations'],
    ])('refuses references for %s', (model, message) => {
      expect(planOf({ model, images: [pngInput(64, 64)] })).toEqual({ ok: false, param: 'image', message });
    });

    it('refuses bytes that are not an image', () => {
      const text = { kind: 'bytes' as const, bytes: Buffer.from('not an image'), contentType: 'image/png' };
      expect(planOf({ model: 'img-2', images: [text] })).toEqual({
        ok: false,
        param: 'image',
        message: 'image[0] is not an image',
      });
    });
  });

  describe('edits', () => {
    it.each([
      ['draw-3', 'draw-3 has no edits'],
      ['zeta-4-2-image', 'zeta-4-2-image has no edits'],
    ])('refuses edits on %s as an operation the family does not have', (model, message) => {
      expect(planOf({ model, images: [pngInput(64, 64)] }, 'edit')).toEqual({
        ok: false,
        param: 'model',
        message,
        unsupported: true,
      });
    });

    it('takes one square PNG under 4 MB with a mask of its size for draw-2', () => {
      const mask = pngInput(64, 64);
      const plan = accepted({ model: 'draw-2', images: [pngInput(64, 64)], mask, size: '512x512' }, 'edit');
      expect(plan.call.mask).toEqual(mask);
      expect(plan.call.size).toEqual(pixels(512, 512));
    });

    const bigSquarePng = {
      kind: 'bytes' as const,
      bytes: Buffer.concat([pngBytes(64, 64), Buffer.alloc(4 * 1024 * 1024)]),
      contentType: 'image/png',
    };
    it.each([
      ['a non-square image', [pngInput(64, 32)], 'image must be square for draw-2 edits'],
      ['a JPEG', [jpegInput(64, 64)], 'image must be a PNG for draw-2 edits'],
      ['an image of 4 MB or more', [bigSquarePng], 'image must be smaller than 4 MB for draw-2 edits'],
      ['two images', [pngInput(64, 64), pngInput(64, 64)], 'draw-2 edits take exactly one image'],
      ['no image', [], 'image is required for edits'],
      ['an image URL', [urlInput()], 'image must be an uploaded file for edits'],
    ])('refuses %s for draw-2', (_, images, message) => {
      expect(planOf({ model: 'draw-2', images }, 'edit')).toEqual({ ok: false, param: 'image', message });
    });

    it('takes up to 16 png/jpeg images for img-*, and refuses a 17th', () => {
      const images = Array.from({ length: 16 }, (_, index) =>
        index % 2 ? jpegInput(32, 32) : pngInput(32, 32),
      );
      expect(accepted({ model: 'img-1', images }, 'edit').call.images).toHaveLength(16);
      expect(planOf({ model: 'img-2', images: [...images, pngInput(32, 32)] }, 'edit')).toEqual({
        ok: false,
        param: 'image',
        message: 'image takes at most 16 files for img-2',
      });
    });

    it('refuses img-* edit images of another type', () => {
      const gif = {
        kind: 'bytes' as const,
        bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
        contentType: 'image/gif',
      };
      expect(planOf({ model: 'img-1', images: [pngInput(32, 32), gif] }, 'edit')).toEqual({
        ok: false,
        param: 'image',
        message: 'image[1] must be png, jpeg or webp for img-1',
      });
    });

    it.each([
      ['of another size', pngInput(64, 32), 'mask must be 64x64, the size of the (first) image'],
      ['that is not a PNG', jpegInput(64, 64), 'mask must be a PNG with an alpha channel'],
      ['given as a URL', urlInput(), 'mask must be an uploaded file'],
    ])('refuses a mask %s', (_, mask, message) => {
      expect(planOf({ model: 'img-1', images: [pngInput(64, 64)], mask }, 'edit')).toEqual({
        ok: false,
        param: 'mask',
        message,
      });
    });

    it('keeps no mask on generations', () => {
      expect(accepted({ model: 'img-2', mask: pngInput(64, 64) }).call.mask).toBeUndefined();
    });
  });

  describe('a model without rules', () => {
    it('passes as sent, without a family, so the adapter sends every field', () => {
      const plan = accepted({
        model: 'relay-image-9',
        n: 0,
        size: '2K',
        quality: 'ultra',
        style: 'vivid',
        responseFormat: 'b64',
        images: [urlInput()],
      });
      expect(plan.call).toEqual({
        prompt: 'a lighthouse at dusk',
        n: 1,
        size: { kind: 'tier', tier: '2K' },
        quality: 'ultra',
        style: 'vivid',
        responseFormat: 'b64',
        images: [urlInput()],
      });
      expect(plan.priceTier).toEqual({ quality: 'ultra' });
      expect(accepted({ model: 'relay-image-9', size: '800x600' }).priceTier).toEqual({ size: '800x600' });
    });

    it('still needs uploaded files for edits and a positive n', () => {
      expect(planOf({ model: 'relay-image-9', images: [urlInput()] }, 'edit')).toMatchObject({
        param: 'image',
      });
      expect(planOf({ model: 'relay-image-9', n: -1 })).toMatchObject({ param: 'n' });
    });
  });
});
