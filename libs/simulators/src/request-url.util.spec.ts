import { pathOfUrl, rawQueryOfUrl } from './request-url.util';

describe('pathOfUrl and rawQueryOfUrl', () => {
  it('split a URL at its first question mark, keeping the query as sent', () => {
    expect(pathOfUrl('/v1/x?b=2&a=%20')).toBe('/v1/x');
    expect(rawQueryOfUrl('/v1/x?b=2&a=%20')).toBe('b=2&a=%20');
    expect(pathOfUrl('/v1/x')).toBe('/v1/x');
    expect(rawQueryOfUrl('/v1/x')).toBe('');
  });
});
