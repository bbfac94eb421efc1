import { signedGammaHeaders } from '../testing/gamma-request-signer.util';
import { GammaKey, ReceivedGammaCall, verifyGammaSignature } from './gamma-signature.verifier';

const KEY: GammaKey = { subAppId: '1500000000', secretKey: 'gamma/secret+Key0123456789' };
const KEYS = new Map([['GSIDexample0123456789', KEY]]);
const NOW = new Date('2025-01-01T12:00:00Z');
const BODY = '{"SubAppId":1500000000,"ModelName":"Gamma","ModelVersion":"3.0-Omni","Prompt":"a fox runs"}';
/** The signature of `gamma-signature.util.spec.ts`'s openssl vector: these inputs, at NOW. */
const OPENSSL_SIGNATURE = '82b868b45550905e02b4111e80a6442b437b0bbb22cb73ad8f190c8013e3e2cf';

function signedCall(
  overrides: { secretId?: string; secretKey?: string; now?: Date; path?: string; region?: string } = {},
): ReceivedGammaCall {
  const headers = signedGammaHeaders({
    secretId: overrides.secretId ?? 'GSIDexample0123456789',
    secretKey: overrides.secretKey ?? KEY.secretKey,
    host: 'upstream.test',
    action: 'CreateAigcVideoTask',
    body: BODY,
    path: overrides.path,
    region: overrides.region,
    now: overrides.now ?? NOW,
  });
  return { paths: ['/'], headers, body: BODY };
}

const verdictOf = (call: ReceivedGammaCall, nowMs = NOW.getTime()) => verifyGammaSignature(call, KEYS, nowMs);

describe('verifyGammaSignature', () => {
  it('accepts the openssl vector and names the key, with or without a region header', () => {
    const call = signedCall();
    expect(call.headers['authorization']).toContain(`Signature=${OPENSSL_SIGNATURE}`);
    expect(verdictOf(call)).toEqual({ secretId: 'GSIDexample0123456789', key: KEY });
    expect(verdictOf(signedCall({ region: 'north-2' }))).toEqual({
      secretId: 'GSIDexample0123456789',
      key: KEY,
    });
  });

  it('refuses an unknown SecretId with SecretIdNotFound', () => {
    expect(verdictOf(signedCall({ secretId: 'GSIDother' }))).toEqual({
      code: 'AuthFailure.SecretIdNotFound',
      message: 'The SecretId GSIDother is not found.',
    });
  });

  it('refuses a signature made with another secret, a tampered body and another action', () => {
    expect(verdictOf(signedCall({ secretKey: 'wrong' }))).toMatchObject({
      code: 'AuthFailure.SignatureFailure',
    });
    expect(verdictOf({ ...signedCall(), body: BODY.replace('fox', 'cat') })).toMatchObject({
      code: 'AuthFailure.SignatureFailure',
    });
    const call = signedCall();
    expect(
      verdictOf({ ...call, headers: { ...call.headers, 'x-gamma-action': 'DescribeTaskDetail' } }),
    ).toMatchObject({
      code: 'AuthFailure.SignatureFailure',
    });
  });

  it('accepts a skew of 300 s either way and refuses 301 s with SignatureExpire', () => {
    const seconds = (count: number) => count * 1000;
    expect(verdictOf(signedCall(), NOW.getTime() + seconds(300))).toHaveProperty('secretId');
    expect(verdictOf(signedCall(), NOW.getTime() - seconds(300))).toHaveProperty('secretId');
    expect(verdictOf(signedCall(), NOW.getTime() + seconds(301))).toEqual({
      code: 'AuthFailure.SignatureExpire',
      message: 'Signature expired. Timestamp is 1735732800, server time is 1735733101.',
    });
    expect(verdictOf(signedCall(), NOW.getTime() - seconds(301))).toMatchObject({
      code: 'AuthFailure.SignatureExpire',
    });
  });

  it('accepts a signature over any of the candidate paths (the /@ prefixed one included)', () => {
    const prefixed = signedCall({ path: '/@latency=5/' });
    expect(verdictOf(prefixed)).toMatchObject({ code: 'AuthFailure.SignatureFailure' });
    expect(verdictOf({ ...prefixed, paths: ['/', '/@latency=5/'] })).toHaveProperty('secretId');
  });

  it.each([
    ['no Authorization header', { authorization: undefined }, 'Authorization'],
    [
      'another algorithm',
      { authorization: 'HMAC-SHA256 Credential=GSIDexample0123456789/x' },
      'Authorization',
    ],
    ['a malformed timestamp', { 'x-gamma-timestamp': '2025-01-01T12:00:00Z' }, 'X-Gamma-Timestamp'],
    ['no timestamp', { 'x-gamma-timestamp': undefined }, 'X-Gamma-Timestamp'],
    ['no host', { host: undefined }, 'host'],
  ])('refuses %s with SignatureFailure', (_case, headerChanges, reason) => {
    const call = signedCall();
    expect(verdictOf({ ...call, headers: { ...call.headers, ...headerChanges } })).toEqual({
      code: 'AuthFailure.SignatureFailure',
      message: expect.stringContaining(reason),
    });
  });

  it('refuses a scope of another day and other signed headers', () => {
    const call = signedCall();
    const authorization = String(call.headers['authorization']);
    const otherDay = authorization.replace('2025-01-01', '2025-01-02');
    expect(verdictOf({ ...call, headers: { ...call.headers, authorization: otherDay } })).toMatchObject({
      message: expect.stringContaining('credential scope'),
    });
    const fewer = authorization.replace(
      'SignedHeaders=content-type;host;x-gamma-action',
      'SignedHeaders=host',
    );
    expect(verdictOf({ ...call, headers: { ...call.headers, authorization: fewer } })).toMatchObject({
      message: expect.stringContaining('SignedHeaders'),
    });
  });
});
