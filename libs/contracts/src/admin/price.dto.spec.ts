import { validateBody } from '../validation/validate-body.util';
import { PutPricesDto } from './price.dto';

const STRICT = { refuseUnknownFields: true };
const NOT_MICROS = 'must be a whole number of micros (a string of digits or a non-negative integer)';

describe('PutPricesDto', () => {
  it('accepts prices and normalises every amount to a string', () => {
    const result = validateBody(
      PutPricesDto,
      {
        prices: [
          {
            model: 'kappa-2.0-flash',
            inputPerMillion: 100000,
            outputPerMillion: '400000',
            defaultMaxOutputTokens: 4096,
          },
          { model: 'img-1', perCall: 0, perImage: { '1024x1024': 40000, '1792x1024': '80000' } },
          { model: 'gamma-2.6', perVideoSecond: { '720p': 50000, '1080p': 90000 } },
        ],
      },
      STRICT,
    );
    expect(result.ok && result.value.prices).toEqual([
      {
        model: 'kappa-2.0-flash',
        inputPerMillion: '100000',
        outputPerMillion: '400000',
        defaultMaxOutputTokens: 4096,
      },
      { model: 'img-1', perCall: '0', perImage: { '1024x1024': '40000', '1792x1024': '80000' } },
      { model: 'gamma-2.6', perVideoSecond: { '720p': '50000', '1080p': '90000' } },
    ]);
  });

  it.each([
    [{ prices: [] }, 'prices', 'prices must not be empty'],
    [{ prices: [{ inputPerMillion: '1' }] }, 'prices[0].model', 'prices[0].model is required'],
    [
      { prices: [{ model: 'a', inputPerMillion: 0.5 }] },
      'prices[0].inputPerMillion',
      `prices[0].inputPerMillion ${NOT_MICROS}`,
    ],
    [
      { prices: [{ model: 'a', perImage: { '1K': '100', '2K': 'cheap' } }] },
      'prices[0].perImage["2K"]',
      `prices[0].perImage["2K"] ${NOT_MICROS}`,
    ],
    [
      { prices: [{ model: 'a', perImage: [100] }] },
      'prices[0].perImage',
      'prices[0].perImage must be an object',
    ],
    [
      { prices: [{ model: 'a', perVideoSecond: { '': '1' } }] },
      'prices[0].perVideoSecond[""]',
      'prices[0].perVideoSecond[""] must have a non-empty name',
    ],
    [
      { prices: [{ model: 'a', defaultMaxOutputTokens: 1.5 }] },
      'prices[0].defaultMaxOutputTokens',
      'prices[0].defaultMaxOutputTokens must be an integer',
    ],
    [
      { prices: [{ model: 'a' }, { model: 'a' }] },
      'prices[1].model',
      'prices[1].model repeats an earlier entry',
    ],
  ])('refuses %j at %s', (body, field, message) => {
    const result = validateBody(PutPricesDto, body, STRICT);
    expect(!result.ok && result.problems).toEqual([{ field, message }]);
  });
});
