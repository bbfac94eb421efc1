import { ASPECT_RATIO_SIZES, ASPECT_RATIOS, aspectRatioSizeOf } from './aspect-ratio-sizes';

/**
 * The rule the table claims, computed by brute force: the largest size of exactly w:h with both sides
 * multiples of 16 and at most 2048x2048 pixels.
 */
function largestSixteenAlignedSize(ratioWidth: number, ratioHeight: number): string {
  let best = '';
  for (let scale = 1; ratioWidth * scale * ratioHeight * scale <= 2048 * 2048; scale += 1) {
    const [width, height] = [ratioWidth * scale, ratioHeight * scale];
    if (width % 16 === 0 && height % 16 === 0) best = `${width}x${height}`;
  }
  return best;
}

describe('ASPECT_RATIO_SIZES', () => {
  it('offers the eight ratios of the interface spec, with its three given sizes', () => {
    expect(ASPECT_RATIOS).toEqual(['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9']);
    expect(ASPECT_RATIO_SIZES['16:9']).toEqual({ width: 2560, height: 1440 });
    expect(ASPECT_RATIO_SIZES['9:16']).toEqual({ width: 1440, height: 2560 });
    expect(ASPECT_RATIO_SIZES['1:1']).toEqual({ width: 2048, height: 2048 });
  });

  it('holds to its documented rule: the largest 16-aligned size of the exact ratio within 2048x2048', () => {
    for (const [ratio, { width, height }] of Object.entries(ASPECT_RATIO_SIZES)) {
      const [ratioWidth, ratioHeight] = ratio.split(':').map(Number);
      expect(`${width}x${height}`).toBe(largestSixteenAlignedSize(ratioWidth, ratioHeight));
    }
  });

  it('looks up offered ratios only', () => {
    expect(aspectRatioSizeOf('21:9')).toEqual({ width: 3024, height: 1296 });
    expect(aspectRatioSizeOf('5:4')).toBeUndefined();
    expect(aspectRatioSizeOf('constructor')).toBeUndefined();
  });
});
