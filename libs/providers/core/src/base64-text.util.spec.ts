import { isBase64Text, matchDataUrlPrefix } from './base64-text.util';

describe('isBase64Text', () => {
  it('takes the standard alphabet with up to two padding characters', () => {
    expect(isBase64Text('iVBORw0KGgo=')).toBe(true);
    expect(isBase64Text('ab+/Zz09==')).toBe(true);
    expect(isBase64Text('QQ')).toBe(true);
  });

  it('refuses the empty text, padding alone, other characters and padding inside', () => {
    for (const text of ['', '=', '==', 'ab=c', 'abc===', 'ab-_', 'ab cd', 'abc\n', 'é']) {
      expect(isBase64Text(text)).toBe(false);
    }
  });

  it('reads megabytes, and finds one wrong character at any place in them', () => {
    const long = Buffer.alloc(15 * 1024 * 1024, 0xa5).toString('base64');
    expect(isBase64Text(long)).toBe(true);
    for (const at of [0, 64 * 1024 - 1, 64 * 1024, long.length - 3]) {
      expect(isBase64Text(`${long.slice(0, at)}*${long.slice(at + 1)}`)).toBe(false);
    }
  });
});

describe('matchDataUrlPrefix', () => {
  const PREFIX = /^data:([a-z/]+);base64,/;

  it('matches a prefix at the start of a long text', () => {
    const match = matchDataUrlPrefix(PREFIX, `data:image/png;base64,${'A'.repeat(2_000_000)}`);
    expect(match?.[0]).toBe('data:image/png;base64,');
    expect(match?.[1]).toBe('image/png');
  });

  it('does not look past the first kilobyte', () => {
    expect(matchDataUrlPrefix(PREFIX, `data:${'a'.repeat(2_000_000)};base64,`)).toBeNull();
    expect(matchDataUrlPrefix(/^data:[a-z]*;base64,/, `data:${'a'.repeat(1000)};base64,AAAA`)).not.toBeNull();
  });
});
