import { signedBetaHeaders } from '../testing/beta-request-signer.util';
import { betaPayloadHash } from './beta-signature.util';
import { ReceivedBetaCall, verifyBetaSignature } from './beta-signature.verifier';

const SECRETS = new Map([['AKTEST', 'SKTEST']]);
const NOW = new Date('2025-01-01T12:00:00Z');
const QUERY = 'Action=CVSync2AsyncSubmitTask&Version=2022-08-31';
const BODY = '{"req_key":"beta_t2i_v40","prompt":"a red fox"}';

function signedCall(
  overrides: { secretKey?: string; accessKey?: string; now?: Date; path?: string } = {},
): ReceivedBetaCall {
  const headers = signedBetaHeaders({
    accessKey: overrides.accessKey ?? 'AKTEST',
    secretKey: overrides.secretKey ?? 'SKTEST',
    host: 'upstream.test',
    path: overrides.path ?? '/',
    rawQuery: QUERY,
    body: BODY,
    now: overrides.now ?? NOW,
  });
  return { method: 'POST', paths: ['/'], rawQuery: QUERY, headers, body: BODY };
}

const refusalOf = (call: ReceivedBetaCall, nowMs = NOW.getTime()): string | undefined => {
  const verification = verifyBetaSignature(call, SECRETS, nowMs);
  return 'refusal' in verification ? verification.refusal : undefined;
};

describe('verifyBetaSignature', () => {
  it('accepts a correctly signed call and names its access key', () => {
    expect(verifyBetaSignature(signedCall(), SECRETS, NOW.getTime())).toEqual({ accessKey: 'AKTEST' });
  });

  it('refuses an unknown access key', () => {
    expect(refusalOf(signedCall({ accessKey: 'AKOTHER' }))).toContain('access key AKOTHER does not exist');
  });

  it('refuses a signature made with the wrong secret', () => {
    expect(refusalOf(signedCall({ secretKey: 'SKWRONG' }))).toContain(
      'signature we calculated does not match',
    );
  });

  it('refuses a tampered body, whether or not the body hash header was updated', () => {
    const call = signedCall();
    const tamperedBody = BODY.replace('fox', 'cat');
    expect(refusalOf({ ...call, body: tamperedBody })).toContain('X-Content-Sha256');
    const rehashed = { ...call.headers, 'x-content-sha256': betaPayloadHash(tamperedBody) };
    expect(refusalOf({ ...call, headers: rehashed, body: tamperedBody })).toContain(
      'signature we calculated does not match',
    );
  });

  it('refuses a tampered query', () => {
    expect(
      refusalOf({ ...signedCall(), rawQuery: 'Action=CVSync2AsyncGetResult&Version=2022-08-31' }),
    ).toContain('does not match');
  });

  it('accepts a clock skew of 14 minutes and refuses one of 16, either way', () => {
    const minutes = (count: number) => count * 60 * 1000;
    expect(refusalOf(signedCall(), NOW.getTime() + minutes(14))).toBeUndefined();
    expect(refusalOf(signedCall(), NOW.getTime() - minutes(14))).toBeUndefined();
    expect(refusalOf(signedCall(), NOW.getTime() + minutes(16))).toContain('15 minutes');
    expect(refusalOf(signedCall(), NOW.getTime() - minutes(16))).toContain('15 minutes');
  });

  it('accepts a signature over any of the candidate paths (the /@ prefixed one included)', () => {
    const prefixed = signedCall({ path: '/@latency=5/' });
    expect(refusalOf(prefixed)).toContain('does not match');
    expect(refusalOf({ ...prefixed, paths: ['/', '/@latency=5/'] })).toBeUndefined();
  });

  it.each([
    ['no Authorization header', { authorization: undefined }, 'Authorization'],
    ['another algorithm', { authorization: 'AWS4-HMAC-SHA256 Credential=AKTEST/x' }, 'Authorization'],
    ['a malformed X-Date', { 'x-date': '2025-01-01 12:00' }, 'X-Date'],
  ])('refuses %s', (_case, headerChanges, reason) => {
    const call = signedCall();
    expect(refusalOf({ ...call, headers: { ...call.headers, ...headerChanges } })).toContain(reason);
  });

  it('refuses a scope of another region or date', () => {
    const call = signedCall();
    const authorization = String(call.headers['authorization']).replace('cn-north-1', 'eu-west-1');
    expect(refusalOf({ ...call, headers: { ...call.headers, authorization } })).toContain('credential scope');
  });
});
