import { microsToUnitNumber, microsToUnits, unitsToMicros } from './money.util';

describe('money in the console', () => {
  it.each([
    ['1', '1000000'],
    ['1.5', '1500000'],
    ['0.000001', '1'],
    ['0', '0'],
    ['000012.340000', '12340000'],
    [' 3.25 ', '3250000'],
    ['999999999999.999999', '999999999999999999'],
  ])('reads %p units as %p micros, exactly', (units, micros) => {
    expect(unitsToMicros(units)).toBe(micros);
  });

  it.each(['', '-1', '1.0000001', '1e3', 'abc', '1,5', '.5', '1.', '1234567890123'])(
    'refuses %p',
    (units) => {
      expect(unitsToMicros(units)).toBeUndefined();
    },
  );

  it.each([
    ['1500000', '1.50'],
    ['1', '0.000001'],
    ['0', '0.00'],
    ['-2500000', '-2.50'],
    ['123456789', '123.456789'],
    ['18446744073709551615', '18446744073709.551615'],
  ])('shows %p micros as %p units', (micros, units) => {
    expect(microsToUnits(micros)).toBe(units);
  });

  it('leaves a value that is not micros as it is', () => {
    expect(microsToUnits('n/a')).toBe('n/a');
  });

  it('plots micros as unit numbers', () => {
    expect(microsToUnitNumber('2500000')).toBe(2.5);
    expect(microsToUnitNumber('oops')).toBe(0);
  });
});
