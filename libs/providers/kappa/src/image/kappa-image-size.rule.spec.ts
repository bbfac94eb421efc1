import { applyKappaImageSizeRule } from './kappa-image-size.rule';

const withImageSize = (imageSize: string) => ({
  contents: [{ role: 'user', parts: [{ text: 'a lighthouse' }] }],
  generationConfig: { temperature: 1, imageConfig: { aspectRatio: '16:9', imageSize } },
});

describe('applyKappaImageSizeRule (native generation route)', () => {
  it.each(['1K', '2K'])('passes %s on the pro model unchanged', (imageSize) => {
    const request = withImageSize(imageSize);
    expect(applyKappaImageSizeRule('kappa-3-pro-image-preview', request)).toEqual({
      ok: true,
      request,
      changed: false,
    });
  });

  it('refuses 4K on the pro model naming the field and the tiers', () => {
    expect(applyKappaImageSizeRule('kappa-3-pro-image-preview', withImageSize('4K'))).toEqual({
      ok: false,
      param: 'generationConfig.imageConfig.imageSize',
      message: 'generationConfig.imageConfig.imageSize must be one of 1K, 2K for kappa-3-pro-image-preview.',
    });
  });

  it.each(['kappa-2.5-flash-image-preview', 'kappa-3.1-flash-image-preview'])(
    'rewrites any other tier to 1K on %s, keeping the rest of the request',
    (model) => {
      const result = applyKappaImageSizeRule(model, withImageSize('2K'));
      expect(result).toEqual({ ok: true, request: withImageSize('1K'), changed: true });
    },
  );

  it('leaves text models, and requests without an image size, alone', () => {
    const text = withImageSize('4K');
    expect(applyKappaImageSizeRule('kappa-2.0-flash', text)).toEqual({
      ok: true,
      request: text,
      changed: false,
    });
    const noSize = { contents: [], generationConfig: { imageConfig: { aspectRatio: '1:1' } } };
    expect(applyKappaImageSizeRule('kappa-3-pro-image-preview', noSize)).toMatchObject({ changed: false });
    expect(applyKappaImageSizeRule('kappa-3-pro-image-preview', { contents: [] })).toMatchObject({
      changed: false,
    });
  });
});
