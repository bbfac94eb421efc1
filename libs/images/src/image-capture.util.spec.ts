import type { ModelPrice } from '@gateway/billing';
import { imageCaptureMicros } from './image-capture.util';

const price: ModelPrice = {
  model: 'draw-3',
  inputPerMillion: 0n,
  outputPerMillion: 0n,
  perCall: 0n,
  perImage: { '1024x1024/hd': 80_000n, '1024x1024/standard': 40_000n, '1792x1024/hd': 120_000n },
};
const planned = { n: 2, priceTier: { size: '1024x1024', quality: 'hd' } };

describe('imageCaptureMicros', () => {
  it('charges the images delivered at the tier the upstream reports', () => {
    const usage = { images: { count: 2, size: '1792x1024', quality: 'hd' } };
    expect(imageCaptureMicros(usage, 2, planned, price)).toBe(240_000n);
  });

  it('fills the parts of the tier the upstream leaves out from the plan', () => {
    expect(imageCaptureMicros({ images: { count: 1, quality: 'standard' } }, 1, planned, price)).toBe(
      40_000n,
    );
    expect(imageCaptureMicros({ images: { count: 1 } }, 1, planned, price)).toBe(80_000n);
  });

  it('falls back to the planned tier when the reported one has no price', () => {
    expect(imageCaptureMicros({ images: { count: 1, size: '512x512' } }, 1, planned, price)).toBe(80_000n);
  });

  it('charges only what the client got, never more than the n planned', () => {
    const usage = { images: { count: 3, size: '1024x1024', quality: 'hd' } };
    expect(imageCaptureMicros(usage, 1, planned, price)).toBe(80_000n);
    expect(imageCaptureMicros(usage, 3, planned, price)).toBe(160_000n);
  });

  it('adds the tokens an upstream reports when the price has token prices', () => {
    const tokenPriced: ModelPrice = { ...price, inputPerMillion: 1_000_000n, outputPerMillion: 1_000_000n };
    const usage = { tokens: { inputTokens: 40, outputTokens: 4_160 }, images: { count: 1 } };
    expect(imageCaptureMicros(usage, 1, planned, tokenPriced)).toBe(80_000n + 4_200n);
  });

  it('keeps the images’ price when an adapter reports token counts that cannot be priced', () => {
    const tokenPriced: ModelPrice = { ...price, inputPerMillion: 1_000_000n };
    const usage = { tokens: { inputTokens: 1.5, outputTokens: 0 }, images: { count: 1 } };
    expect(imageCaptureMicros(usage, 1, planned, tokenPriced)).toBe(80_000n);
  });
});
