import { imageTierKeys, imageTierPrice, videoSecondPrice } from './tier-price.util';

describe('imageTierKeys', () => {
  it('tries size and quality together, then each alone, then the default', () => {
    expect(imageTierKeys({ size: '1024x1024', quality: 'hd' })).toEqual([
      '1024x1024/hd',
      '1024x1024',
      'hd',
      'default',
    ]);
  });

  it('leaves out the parts a tier does not have', () => {
    expect(imageTierKeys({ size: '2k' })).toEqual(['2k', 'default']);
    expect(imageTierKeys({ quality: 'low' })).toEqual(['low', 'default']);
    expect(imageTierKeys({})).toEqual(['default']);
  });
});

describe('imageTierPrice', () => {
  const perImage = { '1024x1024/hd': 80_000n, '1024x1024': 40_000n, hd: 70_000n, default: 10_000n };

  it.each([
    [{ size: '1024x1024', quality: 'hd' }, 80_000n],
    [{ size: '1024x1024', quality: 'standard' }, 40_000n],
    [{ size: '1792x1024', quality: 'hd' }, 70_000n],
    [{ size: '1792x1024', quality: 'standard' }, 10_000n],
    [{}, 10_000n],
  ])('prices %j at the most specific key the table names', (tier, micros) => {
    expect(imageTierPrice({ perImage }, tier)).toEqual({ ok: true, micros });
  });

  it('refuses a tier a table without a default does not name, listing the priced tiers', () => {
    const table = { '1024x1024': 40_000n, '512x512': 20_000n };
    expect(imageTierPrice({ perImage: table }, { size: '256x256', quality: 'standard' })).toEqual({
      ok: false,
      asked: '256x256/standard',
      offered: ['1024x1024', '512x512'],
    });
  });

  it('does not take inherited object members for tiers', () => {
    const table = { '1024x1024': 40_000n };
    expect(imageTierPrice({ perImage: table }, { size: 'constructor' }).ok).toBe(false);
  });

  it('prices every image at 0 when the model has no per-image table (a flat price per call)', () => {
    expect(imageTierPrice({}, { size: '1024x1024' })).toEqual({ ok: true, micros: 0n });
  });
});

describe('videoSecondPrice', () => {
  it('looks the resolution up, then the default', () => {
    const perVideoSecond = { '1080p': 300n, default: 100n };
    expect(videoSecondPrice({ perVideoSecond }, '1080p')).toEqual({ ok: true, micros: 300n });
    expect(videoSecondPrice({ perVideoSecond }, '720p')).toEqual({ ok: true, micros: 100n });
    expect(videoSecondPrice({ perVideoSecond: { '1080p': 300n } }, '720p').ok).toBe(false);
  });
});
