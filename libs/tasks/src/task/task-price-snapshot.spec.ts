import { imageTaskPriceOf, toImageTaskPriceSnapshot } from './task-price-snapshot';

describe('image task price snapshots', () => {
  it('keep the price as JSON and read it back exactly, beyond what a number holds', () => {
    const price = { tier: { size: '2k' }, perCallMicros: 5n, perImageMicros: 90071992547409930n };
    const stored = JSON.parse(JSON.stringify(toImageTaskPriceSnapshot(price)));
    expect(stored).toEqual({
      kind: 'images',
      tier: { size: '2k' },
      perCallMicros: '5',
      perImageMicros: '90071992547409930',
    });
    expect(imageTaskPriceOf(stored)).toEqual(price);
  });

  it.each([
    [null],
    [{ kind: 'video', tier: {}, perCallMicros: '0', perImageMicros: '1' }],
    [{ kind: 'images', tier: {}, perCallMicros: '-1', perImageMicros: '1' }],
    [{ kind: 'images', tier: {}, perCallMicros: '0', perImageMicros: 1 }],
    [{ kind: 'images', perCallMicros: '0', perImageMicros: '1' }],
  ])('are not read from %j', (snapshot) => {
    expect(imageTaskPriceOf(snapshot)).toBeUndefined();
  });
});
