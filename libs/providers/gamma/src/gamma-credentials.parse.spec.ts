import { GAMMA_KEY_FORM, isGammaTokenCredentials, parseGammaCredentials } from './gamma-credentials.parse';

describe('parseGammaCredentials', () => {
  it('reads SubAppId|SecretId|SecretKey', () => {
    expect(parseGammaCredentials('1500000000|GSIDexample0123|c2VjcmV0+/key=')).toEqual({
      ok: true,
      credentials: { subAppId: '1500000000', secretId: 'GSIDexample0123', secretKey: 'c2VjcmV0+/key=' },
    });
  });

  it('reads the fourth part as the region', () => {
    expect(parseGammaCredentials('1500000000|GSIDexample0123|SecretKey4567|north-2')).toEqual({
      ok: true,
      credentials: {
        subAppId: '1500000000',
        secretId: 'GSIDexample0123',
        secretKey: 'SecretKey4567',
        region: 'north-2',
      },
    });
  });

  it('reads AccessKey|SecretKey as a channel of the official-compatible wire', () => {
    const parse = parseGammaCredentials('GAKexample0123|c2VjcmV0+/key=');
    expect(parse).toEqual({
      ok: true,
      credentials: { accessKey: 'GAKexample0123', secretKey: 'c2VjcmV0+/key=' },
    });
    expect(parse.ok && isGammaTokenCredentials(parse.credentials)).toBe(true);
  });

  it.each([
    ['one part', 'GSIDexample0123'],
    ['an empty access key', '|SecretKey4567'],
    ['a token secret with a space', 'GAKexample0123|sk7f2 q9x0'],
    ['five parts', '1500000000|GSIDexample0123|SecretKey4567|north-2|extra'],
    ['a SubAppId that is not a decimal integer', 'app-15|GSIDexample0123|SecretKey4567'],
    ['a SubAppId with a leading zero', '0150|GSIDexample0123|SecretKey4567'],
    ['a SubAppId beyond a safe integer', '99999999999999999|GSIDexample0123|SecretKey4567'],
    ['a region with a slash', '1500000000|GSIDexample0123|SecretKey4567|north/2'],
    ['an empty secret part', '1500000000|GSIDexample0123|'],
    ['a trailing line break', '1500000000|GSIDexample0123|SecretKey4567\n'],
    ['an empty secret', ''],
  ])('refuses %s, naming the form and nothing of the secret', (_case, secret) => {
    const parse = parseGammaCredentials(secret);
    expect(parse).toEqual({ ok: false, expected: GAMMA_KEY_FORM });
    for (const part of secret.split(/[|\s]/).filter((piece) => piece.length > 3)) {
      expect(JSON.stringify(parse)).not.toContain(part);
    }
  });
});
