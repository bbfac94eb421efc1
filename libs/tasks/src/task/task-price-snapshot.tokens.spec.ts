import { toVideoTaskPriceSnapshot, videoTaskPriceOf, type VideoTaskPrice } from './task-price-snapshot';

describe('video task prices billed by tokens', () => {
  const price: VideoTaskPrice = {
    resolution: '720p',
    perCallMicros: 1_000n,
    perSecondMicros: 0n,
    heldSeconds: 5,
    tokens: { inputPerMillionMicros: 0n, outputPerMillionMicros: 2_000_000n, heldTokens: 108_000 },
  };

  it('keep their token prices and held tokens through the row', () => {
    const snapshot = JSON.parse(JSON.stringify(toVideoTaskPriceSnapshot(price)));
    expect(snapshot.tokens).toEqual({
      inputPerMillionMicros: '0',
      outputPerMillionMicros: '2000000',
      heldTokens: 108_000,
    });
    expect(videoTaskPriceOf(snapshot)).toEqual(price);
  });

  it('are no price at all when the token part is damaged, and a per-second price without one', () => {
    const snapshot = toVideoTaskPriceSnapshot(price);
    expect(
      videoTaskPriceOf({ ...snapshot, tokens: { ...(snapshot.tokens as object), heldTokens: -1 } }),
    ).toBeUndefined();
    expect(videoTaskPriceOf({ ...snapshot, tokens: 'many' })).toBeUndefined();
    const { tokens: _tokens, ...perSecond } = price;
    expect(videoTaskPriceOf(toVideoTaskPriceSnapshot(perSecond))).toEqual(perSecond);
  });
});
