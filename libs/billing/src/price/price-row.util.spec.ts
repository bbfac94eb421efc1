import type { Price } from '@gateway/db';
import { fromPriceRow } from './price-row.util';

function priceRow(overrides: Partial<Price>): Price {
  return {
    model: 'omega-text-1',
    inputPerMillion: null,
    outputPerMillion: null,
    perCall: null,
    perImage: null,
    perVideoSecond: null,
    defaultMaxOutputTokens: null,
    updatedAt: new Date(0),
    ...overrides,
  };
}

describe('fromPriceRow', () => {
  it('reads empty dimensions as free and absent tier tables as undefined', () => {
    expect(fromPriceRow(priceRow({ inputPerMillion: 5n }))).toEqual({
      model: 'omega-text-1',
      inputPerMillion: 5n,
      outputPerMillion: 0n,
      perCall: 0n,
      perImage: undefined,
      perVideoSecond: undefined,
      defaultMaxOutputTokens: undefined,
    });
  });

  it('reads tier prices given as numbers or as digit strings beyond 2^53', () => {
    const price = fromPriceRow(
      priceRow({
        perImage: { '1024x1024': 40_000, hd: '90071992547409930' },
        perVideoSecond: { '720p': '100000' },
        defaultMaxOutputTokens: 4096,
      }),
    );
    expect(price.perImage).toEqual({ '1024x1024': 40_000n, hd: 90_071_992_547_409_930n });
    expect(price.perVideoSecond).toEqual({ '720p': 100_000n });
    expect(price.defaultMaxOutputTokens).toBe(4096);
  });

  it.each([
    [{ perImage: { hd: 1.5 } }, 'omega-text-1.perImage.hd'],
    [{ perImage: { hd: -3 } }, 'omega-text-1.perImage.hd'],
    [{ perImage: { hd: '12 units' } }, 'omega-text-1.perImage.hd'],
    [{ perImage: [1, 2] }, 'omega-text-1.perImage'],
    [{ perVideoSecond: 'cheap' }, 'omega-text-1.perVideoSecond'],
    [{ perCall: -1n }, 'omega-text-1.perCall'],
  ] as [Partial<Price>, string][])('refuses %p naming %s', (overrides, field) => {
    expect(() => fromPriceRow(priceRow(overrides))).toThrow(field);
  });
});
