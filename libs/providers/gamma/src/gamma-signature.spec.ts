import { createHash, createHmac } from 'node:crypto';
import { signGammaRequest, type GammaSigningInput } from './gamma-signature';

const SECRET_ID = 'GSIDexample0123456789';
/** `/` and `+` inside: the secret is used as is (after the `GAMMA` prefix), never decoded. */
const SECRET_KEY = 'gamma/secret+Key0123456789';
const BODY = '{"SubAppId":1500000000,"ModelName":"Gamma","ModelVersion":"3.0-Omni","Prompt":"a fox runs"}';
const NOON_2025_01_01 = Date.UTC(2025, 0, 1, 12, 0, 0);

const INPUT: GammaSigningInput = {
  secretId: SECRET_ID,
  secretKey: SECRET_KEY,
  action: 'CreateAigcVideoTask',
  url: 'http://upstream.test/',
  body: BODY,
  nowMs: NOON_2025_01_01,
};

/**
 * Computed outside the implementation with openssl, following upstreams.md §5.2 step by step:
 *
 *   SK='gamma/secret+Key0123456789'
 *   BODY='{"SubAppId":1500000000,"ModelName":"Gamma","ModelVersion":"3.0-Omni","Prompt":"a fox runs"}'
 *   PH=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')
 *   CR=$(printf 'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:upstream.test\nx-gamma-action:createaigcvideotask\n\ncontent-type;host;x-gamma-action\n%s' "$PH")
 *   CRH=$(printf '%s' "$CR" | openssl dgst -sha256 -hex | awk '{print $NF}')
 *   STS=$(printf 'GAMMA-HMAC-SHA256\n1735732800\n2025-01-01/media/gamma_request\n%s' "$CRH")
 *   KD=$(printf '%s' 2025-01-01    | openssl dgst -sha256 -mac HMAC -macopt "key:GAMMA$SK"  -hex | awk '{print $NF}')
 *   KS=$(printf '%s' media         | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KD"    -hex | awk '{print $NF}')
 *   KG=$(printf '%s' gamma_request | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KS"    -hex | awk '{print $NF}')
 *   printf '%s' "$STS" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KG" -hex
 *
 * and the same with `x-gamma-action:describetaskdetail` and the body of DESCRIBE_BODY.
 */
const OPENSSL_SIGNATURE = '82b868b45550905e02b4111e80a6442b437b0bbb22cb73ad8f190c8013e3e2cf';
const DESCRIBE_BODY = '{"SubAppId":1500000000,"TaskId":"1500000000-AigcVideo-0123abcd"}';
const OPENSSL_DESCRIBE_SIGNATURE = 'c126755ed748b1dfad7aebe7e32822a8464f261d664f2b0682b89b02ae5258ff';

/** The same steps again, written literally from the spec text with node:crypto in the test. */
function signatureFollowingTheSpec(): string {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const payloadHash = sha256(BODY);
  const canonicalRequest =
    'POST\n' +
    '/\n' +
    '\n' +
    'content-type:application/json; charset=utf-8\n' +
    'host:upstream.test\n' +
    'x-gamma-action:createaigcvideotask\n' +
    '\n' +
    'content-type;host;x-gamma-action\n' +
    payloadHash;
  const stringToSign =
    `GAMMA-HMAC-SHA256\n1735732800\n2025-01-01/media/gamma_request\n` + sha256(canonicalRequest);
  const kDate = hmac(`GAMMA${SECRET_KEY}`, '2025-01-01');
  const kService = hmac(kDate, 'media');
  const kSigning = hmac(kService, 'gamma_request');
  return createHmac('sha256', kSigning).update(stringToSign).digest('hex');
}

const signatureOf = (input: GammaSigningInput): string | undefined =>
  /Signature=([0-9a-f]{64})$/.exec(signGammaRequest(input).authorization)?.[1];

describe('signGammaRequest', () => {
  it('signs fixed inputs to the vector computed with openssl from the spec', () => {
    expect(signatureFollowingTheSpec()).toBe(OPENSSL_SIGNATURE);
    expect(signGammaRequest(INPUT)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      host: 'upstream.test',
      'x-gamma-action': 'CreateAigcVideoTask',
      'x-gamma-version': '2018-07-17',
      'x-gamma-timestamp': '1735732800',
      authorization:
        `GAMMA-HMAC-SHA256 Credential=${SECRET_ID}/2025-01-01/media/gamma_request, ` +
        `SignedHeaders=content-type;host;x-gamma-action, Signature=${OPENSSL_SIGNATURE}`,
    });
  });

  it('signs the query action lower-cased, to its own vector', () => {
    const headers = signGammaRequest({ ...INPUT, action: 'DescribeTaskDetail', body: DESCRIBE_BODY });
    expect(headers['x-gamma-action']).toBe('DescribeTaskDetail');
    expect(signatureOf({ ...INPUT, action: 'DescribeTaskDetail', body: DESCRIBE_BODY })).toBe(
      OPENSSL_DESCRIBE_SIGNATURE,
    );
  });

  it('sends the region unsigned: the signature is the same with and without it', () => {
    const headers = signGammaRequest({ ...INPUT, region: 'north-2' });
    expect(headers['x-gamma-region']).toBe('north-2');
    expect(signatureOf({ ...INPUT, region: 'north-2' })).toBe(OPENSSL_SIGNATURE);
    expect(signGammaRequest(INPUT)).not.toHaveProperty('x-gamma-region');
  });

  it('writes whole seconds and keeps the signature within the same second', () => {
    expect(signGammaRequest({ ...INPUT, nowMs: NOON_2025_01_01 + 999 })['x-gamma-timestamp']).toBe(
      '1735732800',
    );
    expect(signatureOf({ ...INPUT, nowMs: NOON_2025_01_01 + 999 })).toBe(OPENSSL_SIGNATURE);
  });

  it('dates the scope by the UTC day of the timestamp', () => {
    const lastSecondOf2024 = Date.UTC(2024, 11, 31, 23, 59, 59);
    expect(signGammaRequest({ ...INPUT, nowMs: lastSecondOf2024 }).authorization).toContain(
      `Credential=${SECRET_ID}/2024-12-31/media/gamma_request,`,
    );
  });

  it.each([
    ['the secret key', { secretKey: `${SECRET_KEY}x` }],
    ['one byte of the body', { body: BODY.replace('fox', 'fix') }],
    ['the time, by one second', { nowMs: NOON_2025_01_01 + 1000 }],
    ['the host', { url: 'http://upstream.test:8080/' }],
    ['the path', { url: 'http://upstream.test/v2/' }],
    ['the action', { action: 'DescribeTaskDetail' }],
  ])('changes the signature with %s', (_part, change) => {
    expect(signatureOf({ ...INPUT, ...change })).not.toBe(OPENSSL_SIGNATURE);
  });

  it('signs the same bytes to the same signature whether the body is a string or a Buffer', () => {
    expect(signGammaRequest({ ...INPUT, body: Buffer.from(BODY) })).toEqual(signGammaRequest(INPUT));
  });

  it('signs a host with its non-default port only, lower-cased', () => {
    expect(signGammaRequest({ ...INPUT, url: 'https://Upstream.Test:443/' }).host).toBe('upstream.test');
  });
});
