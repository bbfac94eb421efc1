import {
  checkHttpUrl,
  checkInteger,
  checkList,
  checkMicros,
  checkNumber,
  checkRecord,
  checkString,
  problemAt,
  toMicrosString,
} from './value-checks.util';

describe('value checks', () => {
  it('joins relative paths without a space and plain problems with one', () => {
    expect(problemAt('[2]', 'must be a string')).toBe('[2] must be a string');
    expect(problemAt('[2]', '.url is required')).toBe('[2].url is required');
    expect(problemAt('[2]', undefined)).toBeUndefined();
  });

  it('words bounds by which ends are set', () => {
    expect(checkNumber(5, { min: 0, max: 2 })).toBe('must be between 0 and 2');
    expect(checkNumber(-1, { min: 0 })).toBe('must be at least 0');
    expect(checkNumber(3, { max: 2 })).toBe('must be at most 2');
    expect(checkNumber(Number.NaN)).toBe('must be a number');
  });

  it('refuses integers beyond the safe range', () => {
    expect(checkInteger(2 ** 53)).toBe('must be an integer');
    expect(checkInteger(2 ** 53 - 1)).toBeUndefined();
  });

  it('explains a pattern by its hint', () => {
    expect(checkString('x', { pattern: /^\d+$/, patternHint: 'digits' })).toBe('must be digits');
  });

  it('names the first bad item of a list and its count rules', () => {
    expect(
      checkList([1, 'a', 2], (item) => (typeof item === 'number' ? undefined : 'must be a number')),
    ).toBe('[1] must be a number');
    expect(checkList([1, 2, 3], undefined, { maxItems: 2 })).toBe('must have at most 2 items');
    expect(checkList([1], undefined, { minItems: 2 })).toBe('must have at least 2 items');
  });

  it('quotes record keys in paths', () => {
    expect(checkRecord({ 'a"b': 1 }, () => 'must be text')).toBe('["a\\"b"] must be text');
  });

  it('accepts http and https URLs, also on hosts without a top-level domain', () => {
    expect(checkHttpUrl('http://localhost:4010/kappa')).toBeUndefined();
    expect(checkHttpUrl('https://upstream_sim:8443')).toBeUndefined();
    expect(checkHttpUrl('javascript:alert(1)')).toBe('must be an http or https URL');
  });

  it('bounds micros by the BIGINT column', () => {
    expect(checkMicros('9223372036854775807')).toBeUndefined();
    expect(checkMicros('9223372036854775808')).toBe('must be at most 9223372036854775807');
    expect(checkMicros('0', { positive: true })).toBe('must be greater than 0');
  });

  it('normalises only non-negative safe integers to micros strings', () => {
    expect(toMicrosString(42)).toBe('42');
    expect(toMicrosString(-1)).toBe(-1);
    expect(toMicrosString(1.5)).toBe(1.5);
    expect(toMicrosString(2 ** 53)).toBe(2 ** 53);
    expect(toMicrosString('7')).toBe('7');
  });
});
