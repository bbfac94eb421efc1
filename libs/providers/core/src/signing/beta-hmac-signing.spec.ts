import { createHash, createHmac } from 'node:crypto';
import { betaCanonicalQuery, betaXDate, signBetaRequest, type BetaSigningInput } from './beta-hmac-signing';

const ACCESS_KEY = 'AKLTexample0123456789';
/** `/` and `+` inside: the secret is used as is, never decoded. */
const SECRET_KEY = 'Zm9yLXRlc3RzLW9ubHk/sk+0123456789';
const BODY = '{"req_key":"beta_t2i_v40","prompt":"a red kite over the sea"}';
const NOON_2025_01_01 = Date.UTC(2025, 0, 1, 12, 0, 0);

/** The query in reverse order on purpose: the canonical query sorts it. */
const INPUT: BetaSigningInput = {
  accessKey: ACCESS_KEY,
  secretKey: SECRET_KEY,
  region: 'cn-north-1',
  service: 'cv',
  method: 'POST',
  url: 'http://127.0.0.1:4010/?Version=2022-08-31&Action=CVSync2AsyncSubmitTask',
  body: BODY,
  nowMs: NOON_2025_01_01,
};

/**
 * Computed outside the implementation with openssl, following upstreams.md §4.2 step by step:
 *
 *   SK='Zm9yLXRlc3RzLW9ubHk/sk+0123456789'
 *   BODY='{"req_key":"beta_t2i_v40","prompt":"a red kite over the sea"}'
 *   PH=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')
 *   CR=$(printf 'POST\n/\nAction=CVSync2AsyncSubmitTask&Version=2022-08-31\ncontent-type:application/json\nhost:127.0.0.1:4010\nx-content-sha256:%s\nx-date:20250101T120000Z\n\ncontent-type;host;x-content-sha256;x-date\n%s' "$PH" "$PH")
 *   CRH=$(printf '%s' "$CR" | openssl dgst -sha256 -hex | awk '{print $NF}')
 *   STS=$(printf 'HMAC-SHA256\n20250101T120000Z\n20250101/cn-north-1/cv/request\n%s' "$CRH")
 *   KD=$(printf '%s' 20250101   | openssl dgst -sha256 -mac HMAC -macopt "key:$SK"    -hex | awk '{print $NF}')
 *   KR=$(printf '%s' cn-north-1 | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KD" -hex | awk '{print $NF}')
 *   KS=$(printf '%s' cv         | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KR" -hex | awk '{print $NF}')
 *   KG=$(printf '%s' request    | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KS" -hex | awk '{print $NF}')
 *   printf '%s' "$STS" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KG" -hex
 */
const OPENSSL_PAYLOAD_HASH = '54d84b01772f8396cf1d534bfc7f8a28420583c37c09011542cedcf5ebc137c5';
const OPENSSL_SIGNATURE = '3e0df2da24e539d315b984b9f8d3dbec9321bb51cc63079427a79b90ef539af3';

/** The same steps again, written literally from the spec text with node:crypto in the test. */
function signatureFollowingTheSpec(): string {
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const xdate = '20250101T120000Z';
  const date = xdate.slice(0, 8);
  const payloadHash = sha256(BODY);
  const canonicalRequest =
    'POST\n' +
    '/\n' +
    'Action=CVSync2AsyncSubmitTask&Version=2022-08-31\n' +
    'content-type:application/json\n' +
    'host:127.0.0.1:4010\n' +
    `x-content-sha256:${payloadHash}\n` +
    `x-date:${xdate}\n` +
    '\n' +
    'content-type;host;x-content-sha256;x-date\n' +
    payloadHash;
  const scope = `${date}/cn-north-1/cv/request`;
  const stringToSign = `HMAC-SHA256\n${xdate}\n${scope}\n${sha256(canonicalRequest)}`;
  const kDate = hmac(SECRET_KEY, date);
  const kRegion = hmac(kDate, 'cn-north-1');
  const kService = hmac(kRegion, 'cv');
  const kSigning = hmac(kService, 'request');
  return createHmac('sha256', kSigning).update(stringToSign).digest('hex');
}

describe('signBetaRequest', () => {
  it('signs fixed inputs to the vector computed with openssl from the spec', () => {
    expect(signatureFollowingTheSpec()).toBe(OPENSSL_SIGNATURE);
    const headers = signBetaRequest(INPUT);
    expect(headers).toEqual({
      'content-type': 'application/json',
      host: '127.0.0.1:4010',
      'x-content-sha256': OPENSSL_PAYLOAD_HASH,
      'x-date': '20250101T120000Z',
      authorization:
        `HMAC-SHA256 Credential=${ACCESS_KEY}/20250101/cn-north-1/cv/request, ` +
        `SignedHeaders=content-type;host;x-content-sha256;x-date, Signature=${OPENSSL_SIGNATURE}`,
    });
  });

  it('signs the same bytes to the same signature whether the body is a string or a Buffer', () => {
    expect(signBetaRequest({ ...INPUT, body: Buffer.from(BODY) })).toEqual(signBetaRequest(INPUT));
  });

  it.each([
    ['the secret key', { secretKey: `${SECRET_KEY}x` }],
    ['one byte of the body', { body: BODY.replace('kite', 'kits') }],
    ['the time, by one second', { nowMs: NOON_2025_01_01 + 1000 }],
    ['the region', { region: 'cn-north-2' }],
    ['the path', { url: 'http://127.0.0.1:4010/bt?Version=2022-08-31&Action=CVSync2AsyncSubmitTask' }],
    ['the host', { url: 'http://127.0.0.1:4011/?Version=2022-08-31&Action=CVSync2AsyncSubmitTask' }],
  ])('changes the signature with %s', (_part, change) => {
    const signatureOf = (input: BetaSigningInput) =>
      /Signature=([0-9a-f]{64})$/.exec(signBetaRequest(input).authorization)?.[1];
    expect(signatureOf({ ...INPUT, ...change })).not.toBe(OPENSSL_SIGNATURE);
    expect(signatureOf(INPUT)).toBe(OPENSSL_SIGNATURE);
  });

  it('hashes an empty body as the SHA-256 of the empty string', () => {
    expect(signBetaRequest({ ...INPUT, body: '' })['x-content-sha256']).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('signs a host with its non-default port only, lower-cased', () => {
    expect(signBetaRequest({ ...INPUT, url: 'https://Upstream.Example:443/?Action=A' }).host).toBe(
      'upstream.example',
    );
  });
});

describe('betaXDate', () => {
  it('writes UTC as YYYYMMDDTHHMMSSZ', () => {
    expect(betaXDate(Date.UTC(2026, 10, 24, 7, 5, 9, 999))).toBe('20261124T070509Z');
  });
});

describe('betaCanonicalQuery', () => {
  it.each([
    ['Version=2022-08-31&Action=CVSync2AsyncSubmitTask', 'Action=CVSync2AsyncSubmitTask&Version=2022-08-31'],
    ['b=2&a=2&a=1', 'a=1&a=2&b=2'],
    ['q=a%20b&r=x+y', 'q=a%20b&r=x%2By'],
    ["s=it's*(ok)!&t=~-_.", 's=it%27s%2A%28ok%29%21&t=~-_.'],
    ['flag&k=%c3%a9', 'flag=&k=%C3%A9'],
    ['', ''],
  ])('canonicalises %j as %j', (raw, canonical) => {
    expect(betaCanonicalQuery(raw)).toBe(canonical);
  });
});
