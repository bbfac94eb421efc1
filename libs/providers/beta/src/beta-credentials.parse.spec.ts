import { BETA_KEY_FORM, parseBetaCredentials } from './beta-credentials.parse';

describe('parseBetaCredentials', () => {
  it('reads AccessKey|SecretKey as a signing pair', () => {
    expect(parseBetaCredentials('AKLTexample0123|c2VjcmV0+/key=')).toEqual({
      ok: true,
      credentials: { kind: 'signed', accessKey: 'AKLTexample0123', secretKey: 'c2VjcmV0+/key=' },
    });
  });

  it('reads a key starting sk- as a relay key', () => {
    expect(parseBetaCredentials('sk-relay-0123456789')).toEqual({
      ok: true,
      credentials: { kind: 'relay', apiKey: 'sk-relay-0123456789' },
    });
  });

  it.each([
    ['a lone key that is not a relay key', 'AKLTexample0123'],
    ['three parts', 'AKLTexample0123|SecretPart4567|north'],
    ['a relay key with a space', 'sk-relay 0123456789'],
    ['a relay key with a pipe', 'sk-relay|0123456789'],
    ['an empty secret', ''],
  ])('refuses %s, naming both forms and nothing of the secret', (_case, secret) => {
    const parse = parseBetaCredentials(secret);
    expect(parse).toEqual({ ok: false, expected: BETA_KEY_FORM });
    for (const part of secret.split(/[|\s]/).filter((piece) => piece.length > 3)) {
      expect(JSON.stringify(parse)).not.toContain(part);
    }
  });
});
