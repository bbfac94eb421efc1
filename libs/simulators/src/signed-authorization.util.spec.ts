import { authorizationFieldsOf, signaturesMatch, signedHeaderValueOf } from './signed-authorization.util';

describe('authorizationFieldsOf', () => {
  it('splits the credential and keeps the signed headers and signature as sent', () => {
    expect(
      authorizationFieldsOf(
        'ALG Credential=ak/20261124/r/s/request, SignedHeaders=host;x-date, Signature=ab12',
        'ALG',
      ),
    ).toEqual({
      credential: ['ak', '20261124', 'r', 's', 'request'],
      signedHeaders: 'host;x-date',
      signature: 'ab12',
    });
  });

  it.each([
    ['another algorithm', 'OTHER Credential=ak/x, SignedHeaders=host, Signature=ab'],
    ['no signature', 'ALG Credential=ak/x, SignedHeaders=host'],
    ['no header', undefined],
  ])('reads nothing from %s', (_case, header) => {
    expect(authorizationFieldsOf(header, 'ALG')).toBeUndefined();
  });
});

describe('signedHeaderValueOf', () => {
  it('joins a repeated header with commas', () => {
    expect(signedHeaderValueOf({ 'x-a': ['1', '2'], 'x-b': '3' }, 'x-a')).toBe('1,2');
    expect(signedHeaderValueOf({ 'x-b': '3' }, 'x-b')).toBe('3');
  });
});

describe('signaturesMatch', () => {
  it('matches equal signatures only, whatever their lengths', () => {
    expect(signaturesMatch('ab12', 'ab12')).toBe(true);
    expect(signaturesMatch('ab12', 'ab13')).toBe(false);
    expect(signaturesMatch('ab12', 'ab1')).toBe(false);
  });
});
