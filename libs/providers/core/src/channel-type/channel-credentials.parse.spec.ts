import {
  parseAccessKeyPair,
  parsePlainKey,
  parseSubAppKeys,
  type CredentialsParse,
} from './channel-credentials.parse';

const PLAIN_KEY_FORM = 'a single API key (no spaces, line breaks or "|")';
const ACCESS_KEY_PAIR_FORM = 'AccessKey|SecretKey';
const SUB_APP_KEYS_FORM = 'SubAppId|SecretId|SecretKey or SubAppId|SecretId|SecretKey|Region';

/** A failure is the expected form alone: nothing of the secret can travel with it. */
function expectRefused<T>(parse: CredentialsParse<T>, form: string, secret: string): void {
  expect(parse).toEqual({ ok: false, expected: form });
  for (const part of secret.split(/[|\s]/).filter((piece) => piece.length > 3)) {
    expect(JSON.stringify(parse)).not.toContain(part);
  }
}

describe('parsePlainKey', () => {
  it('takes one key as it is', () => {
    expect(parsePlainKey('sk-relay_0123.abc~XYZ')).toEqual({
      ok: true,
      credentials: { apiKey: 'sk-relay_0123.abc~XYZ' },
    });
  });

  it.each([
    ['empty', ''],
    ['a trailing newline', 'sk-pasted-0123456789\n'],
    ['a space inside', 'sk-two words-0123'],
    ['a composite key', 'AccessKey0123|SecretKey4567'],
    ['a non-ASCII character', 'sk-clé-0123456789'],
  ])('refuses %s, naming the form only', (_case, secret) => {
    expectRefused(parsePlainKey(secret), PLAIN_KEY_FORM, secret);
  });
});

describe('parseAccessKeyPair', () => {
  it('splits AccessKey|SecretKey', () => {
    expect(parseAccessKeyPair('AKLTexample0123|c2VjcmV0LWtleQ==')).toEqual({
      ok: true,
      credentials: { accessKey: 'AKLTexample0123', secretKey: 'c2VjcmV0LWtleQ==' },
    });
  });

  it.each([
    ['one part', 'AKLTexample0123'],
    ['three parts', 'AKLTexample0123|SecretPart4567|Extra890'],
    ['an empty secret key', 'AKLTexample0123|'],
    ['an empty access key', '|SecretPart4567'],
    ['a space in a part', 'AKLT9f3k2x0123|q8Zr 4mWv7567'],
  ])('refuses %s as "AccessKey|SecretKey"', (_case, secret) => {
    expectRefused(parseAccessKeyPair(secret), ACCESS_KEY_PAIR_FORM, secret);
  });
});

describe('parseSubAppKeys', () => {
  it('splits SubAppId|SecretId|SecretKey without a region', () => {
    expect(parseSubAppKeys('1500012345|AKIDexample0123|SecretKeyValue4567')).toEqual({
      ok: true,
      credentials: { subAppId: '1500012345', secretId: 'AKIDexample0123', secretKey: 'SecretKeyValue4567' },
    });
  });

  it('takes the region as a fourth part', () => {
    const parse = parseSubAppKeys('1500012345|AKIDexample0123|SecretKeyValue4567|north-1');
    expect(parse.ok && parse.credentials.region).toBe('north-1');
  });

  it.each([
    ['two parts', 'AKIDexample0123|SecretKeyValue4567'],
    ['five parts', '1500012345|AKIDexample0123|SecretKeyValue4567|north-1|extra'],
    ['an empty region', '1500012345|AKIDexample0123|SecretKeyValue4567|'],
    ['a newline in a part', '1500012345|AKIDexample0123\n|SecretKeyValue4567'],
  ])('refuses %s, naming both accepted forms', (_case, secret) => {
    expectRefused(parseSubAppKeys(secret), SUB_APP_KEYS_FORM, secret);
  });
});
