import { extractCredential } from './credentials.extract';

describe('extractCredential', () => {
  it.each(['openai', 'native', 'family', 'admin'] as const)('reads a Bearer token on %s routes', (family) => {
    expect(extractCredential({ authorization: 'Bearer gk_token' }, {}, family)).toBe('gk_token');
  });

  it('accepts any case of the scheme and surrounding blanks', () => {
    expect(extractCredential({ authorization: 'bearer   gk_token  ' }, {}, 'openai')).toBe('gk_token');
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a missing token', 'Bearer '],
    ['a token with spaces', 'Bearer gk_a gk_b'],
    ['no scheme', 'gk_token'],
  ])('ignores an authorization header with %s', (_case, authorization) => {
    expect(extractCredential({ authorization }, {}, 'openai')).toBeUndefined();
  });

  it('reads x-vendor-api-key and ?key= on native routes', () => {
    expect(extractCredential({ 'x-vendor-api-key': 'gk_header' }, {}, 'native')).toBe('gk_header');
    expect(extractCredential({}, { alt: 'sse', key: 'gk_query' }, 'native')).toBe('gk_query');
    expect(extractCredential({}, { key: ['gk_first', 'gk_second'] }, 'native')).toBe('gk_first');
  });

  it('prefers Bearer, then the header, then the query on native routes', () => {
    const query = { key: 'gk_query' };

    expect(
      extractCredential(
        { authorization: 'Bearer gk_bearer', 'x-vendor-api-key': 'gk_header' },
        query,
        'native',
      ),
    ).toBe('gk_bearer');
    expect(extractCredential({ 'x-vendor-api-key': 'gk_header' }, query, 'native')).toBe('gk_header');
    expect(extractCredential({ 'x-vendor-api-key': '  ' }, query, 'native')).toBe('gk_query');
  });

  it.each(['openai', 'family', 'admin'] as const)(
    'ignores the header and query forms on %s routes',
    (family) => {
      expect(
        extractCredential({ 'x-vendor-api-key': 'gk_header' }, { key: 'gk_query' }, family),
      ).toBeUndefined();
    },
  );

  it('returns undefined when nothing is presented', () => {
    expect(extractCredential({}, undefined, 'native')).toBeUndefined();
    expect(extractCredential({}, { key: 42 }, 'native')).toBeUndefined();
  });
});
