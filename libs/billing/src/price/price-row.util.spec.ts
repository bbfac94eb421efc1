import { fromPriceRow, type PriceRow } from './price-row.util';

function priceRow(overrides: Partial<PriceRow>): PriceRow {
  return {
    model: 'omega-text-1',
    inputPerMillion: null,
    outputPerMillion: null,
    perCall: null,
    perImage: null,
    perVideoSecond: null,
    defaultMaxOutputTokens: null,
    maxReasoningTokens: null,
    ...overrides,
  };
}

describe('fromPriceRow', () => {
  it("reads pg's decimal strings of int8 columns exactly, beyond 2^53", () => {
    const price = fromPriceRow(priceRow({ inputPerMillion: '9007199254740993', perCall: '0' }));

    expect(price.inputPerMillion).toBe(9_007_199_254_740_993n);
    expect(price.perCall).toBe(0n);
  });

  it('reads empty dimensions as free and absent tier tables as undefined', () => {
    expect(fromPriceRow(priceRow({ inputPerMillion: 5n }))).toEqual({
      model: 'omega-text-1',
      inputPerMillion: 5n,
      outputPerMillion: 0n,
      perCall: 0n,
      perImage: undefined,
      perVideoSecond: undefined,
      defaultMaxOutputTokens: undefined,
      maxReasoningTokens: undefined,
    });
  });

  it('reads tier prices given as numbers or as digit strings beyond 2^53', () => {
    const price = fromPriceRow(
      priceRow({
        perImage: { '1024x1024': 40_000, hd: '90071992547409930' },
        perVideoSecond: { '720p': '100000' },
        defaultMaxOutputTokens: 4096,
        maxReasoningTokens: 8192,
      }),
    );
    expect(price.perImage).toEqual({ '1024x1024': 40_000n, hd: 90_071_992_547_409_930n });
    expect(price.perVideoSecond).toEqual({ '720p': 100_000n });
    expect(price.defaultMaxOutputTokens).toBe(4096);
    expect(price.maxReasoningTokens).toBe(8192);
  });

  it.each([
    [{ perImage: { hd: 1.5 } }, 'omega-text-1.perImage.hd'],
    [{ perImage: { hd: -3 } }, 'omega-text-1.perImage.hd'],
    [{ perImage: { hd: '12 units' } }, 'omega-text-1.perImage.hd'],
    [{ perImage: [1, 2] }, 'omega-text-1.perImage'],
    [{ perVideoSecond: 'cheap' }, 'omega-text-1.perVideoSecond'],
    [{ perCall: -1n }, 'omega-text-1.perCall'],
  ] as [Partial<PriceRow>, string][])('refuses %p naming %s', (overrides, field) => {
    expect(() => fromPriceRow(priceRow(overrides))).toThrow(field);
  });
});
