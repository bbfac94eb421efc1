import { textCostMicros } from './cost.util';
import type { ModelPrice } from './price.types';
import { costMicros, estimateImageHoldMicros, UnpricedTierError } from './usage-cost.util';

const imagePrice: ModelPrice = {
  model: 'draw-3',
  inputPerMillion: 0n,
  outputPerMillion: 0n,
  perCall: 500n,
  perImage: { '1024x1024/hd': 80_000n, '1024x1024': 40_000n, default: 60_000n },
};

describe('costMicros', () => {
  it('prices images by the tier they were produced at, plus the call', () => {
    expect(costMicros({ images: { count: 3, size: '1024x1024', quality: 'hd' } }, imagePrice)).toBe(
      500n + 3n * 80_000n,
    );
    expect(costMicros({ images: { count: 2, size: '1024x1792', quality: 'hd' } }, imagePrice)).toBe(
      500n + 2n * 60_000n,
    );
  });

  it('charges only the call for an answer without images', () => {
    expect(costMicros({ images: { count: 0, size: '1024x1024' } }, imagePrice)).toBe(500n);
    expect(costMicros({}, imagePrice)).toBe(500n);
  });

  it('adds every dimension present: tokens, images and video seconds', () => {
    const price: ModelPrice = {
      ...imagePrice,
      inputPerMillion: 1_000_000n,
      outputPerMillion: 2_000_000n,
      perVideoSecond: { '720p': 1_000n },
    };
    const tokens = { inputTokens: 40, outputTokens: 4160 };
    expect(
      costMicros(
        { tokens, images: { count: 1, size: '1024x1024' }, video: { seconds: 4.2, resolution: '720p' } },
        price,
      ),
    ).toBe(textCostMicros(tokens, price) + 40_000n + 5n * 1_000n);
  });

  it('agrees with textCostMicros for token usage alone', () => {
    const price: ModelPrice = { ...imagePrice, inputPerMillion: 3_000_000n, outputPerMillion: 15_000_000n };
    const tokens = { inputTokens: 1000, outputTokens: 500 };
    expect(costMicros({ tokens }, price)).toBe(textCostMicros(tokens, price));
  });

  it('throws for a tier the table does not price', () => {
    const price: ModelPrice = { ...imagePrice, perImage: { '1024x1024': 40_000n } };
    expect(() => costMicros({ images: { count: 1, size: '512x512' } }, price)).toThrow(UnpricedTierError);
  });
});

describe('estimateImageHoldMicros', () => {
  it('holds n images at the tier asked for, plus the call', () => {
    expect(estimateImageHoldMicros(4, { size: '1024x1024', quality: 'hd' }, imagePrice)).toBe(
      500n + 4n * 80_000n,
    );
  });

  it('covers the cost of every answer with at most n images at that tier', () => {
    const tier = { size: '1024x1024', quality: 'standard' };
    const hold = estimateImageHoldMicros(2, tier, imagePrice);
    for (const count of [0, 1, 2]) {
      expect(costMicros({ images: { count, ...tier } }, imagePrice)).toBeLessThanOrEqual(hold);
    }
  });

  it('refuses a count that is not a whole number', () => {
    expect(() => estimateImageHoldMicros(1.5, {}, imagePrice)).toThrow(RangeError);
  });
});
