import { parseChannelModels } from './channel-models.parse';

describe('parseChannelModels', () => {
  it('reads models with and without an upstream mapping', () => {
    expect(
      parseChannelModels([{ model: 'img-2', upstreamModel: 'image-v2-upstream' }, { model: 'draw-3' }]),
    ).toEqual([
      { model: 'img-2', upstreamModel: 'image-v2-upstream' },
      { model: 'draw-3', upstreamModel: 'draw-3' },
    ]);
  });

  it('accepts plain model names', () => {
    expect(parseChannelModels(['kappa-2.0-flash'])).toEqual([
      { model: 'kappa-2.0-flash', upstreamModel: 'kappa-2.0-flash' },
    ]);
  });

  it('skips malformed entries and keeps the first entry of a repeated model', () => {
    const column = [
      null,
      42,
      '',
      { upstreamModel: 'orphan' },
      { model: 7 },
      { model: 'img-1', upstreamModel: 'first' },
      { model: 'img-1', upstreamModel: 'second' },
      { model: 'img-2', upstreamModel: '' },
    ];

    expect(parseChannelModels(column)).toEqual([
      { model: 'img-1', upstreamModel: 'first' },
      { model: 'img-2', upstreamModel: 'img-2' },
    ]);
  });

  it.each([null, {}, 'img-1', 3])('reads a non-array column %p as no models', (column) => {
    expect(parseChannelModels(column)).toEqual([]);
  });
});
