import { INT4_MAX, INT8_MAX, toStorableCount, toStorableMicros, toStorableText } from './storable-value.util';

describe('toStorableText', () => {
  it('replaces NUL and unpaired surrogates, and keeps paired ones', () => {
    expect(toStorableText('a\u0000b')).toBe('a\ufffdb');
    expect(toStorableText('\ud800x\udc00')).toBe('\ufffdx\ufffd');
    expect(toStorableText('x\ud83d')).toBe('x\ufffd');
    expect(toStorableText('smile \ud83d\ude00')).toBe('smile \ud83d\ude00');
    expect(toStorableText('plain')).toBe('plain');
    expect(toStorableText(undefined)).toBeUndefined();
  });

  it('gives text that survives JSON into jsonb, which refuses \\u0000 and lone surrogate escapes', () => {
    const stored = JSON.stringify(toStorableText('m\u0000\udfff'));
    expect(stored).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });
});

describe('toStorableCount', () => {
  it.each([
    [3_000_000_000, INT4_MAX],
    [Number.POSITIVE_INFINITY, INT4_MAX],
    [1.2, 2],
    [-5, 0],
    [Number.NaN, 0],
    [42, 42],
  ])('stores %p as %p', (value, stored) => {
    expect(toStorableCount(value)).toBe(stored);
  });

  it('leaves an absent count absent', () => {
    expect(toStorableCount(undefined)).toBeUndefined();
  });
});

describe('toStorableMicros', () => {
  it('asks for at most the int8 maximum', () => {
    expect(toStorableMicros(INT8_MAX + 1n)).toBe(INT8_MAX);
    expect(toStorableMicros(12n)).toBe(12n);
  });
});
