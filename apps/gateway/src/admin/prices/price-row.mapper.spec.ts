import { Prisma, type Price } from '@gateway/db';
import { fromPriceRow, toPriceColumns } from './price-row.mapper';

describe('price row mapping', () => {
  it('stores micros as BigInt and tier tables as strings, so no digit is rounded', () => {
    const columns = toPriceColumns({
      model: 'kappa-pro',
      inputPerMillion: '9007199254740993',
      perImage: { '1K': '9007199254740995' },
    });
    expect(columns).toEqual({
      model: 'kappa-pro',
      inputPerMillion: 9007199254740993n,
      outputPerMillion: null,
      perCall: null,
      perImage: { '1K': '9007199254740995' },
      perVideoSecond: Prisma.DbNull,
      defaultMaxOutputTokens: null,
      maxReasoningTokens: null,
    });
  });

  it('reads a row back into the shape PUT accepts, leaving absent dimensions out', () => {
    const row: Price = {
      model: 'gamma-video',
      inputPerMillion: null,
      outputPerMillion: 12n,
      perCall: 0n,
      perImage: null,
      perVideoSecond: { '720p': '250000', '1080p': 400000 },
      defaultMaxOutputTokens: 512,
      maxReasoningTokens: 2048,
      updatedAt: new Date(0),
    };
    expect(fromPriceRow(row)).toEqual({
      model: 'gamma-video',
      outputPerMillion: '12',
      perCall: '0',
      perVideoSecond: { '720p': '250000', '1080p': '400000' },
      defaultMaxOutputTokens: 512,
      maxReasoningTokens: 2048,
    });
  });
});
