import {
  cumulativeShare,
  defaultReplyText,
  splitIntoPieces,
  tokensForText,
  truncateToTokens,
} from './tokens.util';

describe('tokens.util', () => {
  it('counts one token per four characters, rounded up', () => {
    expect(tokensForText('')).toBe(0);
    expect(tokensForText('abcd')).toBe(1);
    expect(tokensForText('abcde')).toBe(2);
    expect(truncateToTokens('abcdefghij', 2)).toBe('abcdefgh');
  });

  it('builds a default reply of four words per chunk', () => {
    expect(defaultReplyText(2).split(' ')).toHaveLength(8);
    expect(defaultReplyText(2)).toBe(defaultReplyText(2));
    expect(defaultReplyText(1)).toMatch(/^[A-Z].*\.$/);
  });

  it('splits text into pieces whose concatenation is the text', () => {
    const text = defaultReplyText(3);
    const pieces = splitIntoPieces(text, 3);
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe(text);
    expect(splitIntoPieces('abcdef', 4).join('')).toBe('abcdef');
    expect(splitIntoPieces('abcdef', 4)).toHaveLength(4);
    expect(splitIntoPieces('ab', 5)).toEqual(['a', 'b']);
  });

  it('gives growing cumulative shares that end exactly at the total', () => {
    const shares = [1, 2, 3].map((done) => cumulativeShare(10, done, 3));
    expect(shares).toEqual([3, 6, 10]);
  });
});
