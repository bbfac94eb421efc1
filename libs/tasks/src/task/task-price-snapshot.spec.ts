import {
  imageTaskPriceOf,
  toImageTaskPriceSnapshot,
  toVideoTaskPriceSnapshot,
  videoTaskPriceOf,
} from './task-price-snapshot';

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

describe('video task price snapshots', () => {
  it('keep the price as JSON and read it back exactly, beyond what a number holds', () => {
    const price = {
      resolution: '1080p',
      perCallMicros: 0n,
      perSecondMicros: 90071992547409930n,
      heldSeconds: 8,
    };
    const stored = JSON.parse(JSON.stringify(toVideoTaskPriceSnapshot(price)));
    expect(stored).toEqual({
      kind: 'video',
      resolution: '1080p',
      perCallMicros: '0',
      perSecondMicros: '90071992547409930',
      heldSeconds: 8,
    });
    expect(videoTaskPriceOf(stored)).toEqual(price);
  });

  it('keep a model priced without tiers (no resolution)', () => {
    const price = { resolution: null, perCallMicros: 7n, perSecondMicros: 3n, heldSeconds: 5 };
    expect(videoTaskPriceOf(JSON.parse(JSON.stringify(toVideoTaskPriceSnapshot(price))))).toEqual(price);
  });

  it.each([
    [undefined],
    [{ kind: 'images', tier: {}, perCallMicros: '0', perImageMicros: '1' }],
    [{ kind: 'video', resolution: 720, perCallMicros: '0', perSecondMicros: '1', heldSeconds: 5 }],
    [{ kind: 'video', resolution: '720p', perCallMicros: '0', perSecondMicros: '-1', heldSeconds: 5 }],
    [{ kind: 'video', resolution: '720p', perCallMicros: 0, perSecondMicros: '1', heldSeconds: 5 }],
    [{ kind: 'video', resolution: '720p', perCallMicros: '0', perSecondMicros: '1', heldSeconds: -1 }],
    [{ kind: 'video', resolution: '720p', perCallMicros: '0', perSecondMicros: '1' }],
  ])('are not read from %j', (snapshot) => {
    expect(videoTaskPriceOf(snapshot)).toBeUndefined();
  });
});
