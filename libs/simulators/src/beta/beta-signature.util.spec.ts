import {
  betaCanonicalQuery,
  betaCanonicalRequest,
  betaPayloadHash,
  betaScope,
  betaSignature,
  betaSigningKey,
  betaStringToSign,
} from './beta-signature.util';

/**
 * A fixed vector computed by hand from upstreams.md §4.2, with openssl and no project code:
 *
 *   BODY='{"req_key":"beta_t2i_v40","prompt":"a red fox"}'
 *   printf '%s' "$BODY" | openssl dgst -sha256                        # step 2: payload_hash
 *   printf 'POST\n/\nAction=CVSync2AsyncSubmitTask&Version=2022-08-31\ncontent-type:application/json\n'\
 *          'host:upstream.test\nx-content-sha256:%s\nx-date:20250101T120000Z\n\n'\
 *          'content-type;host;x-content-sha256;x-date\n%s' "$HASH" "$HASH" > creq   # step 6
 *   openssl dgst -sha256 < creq                                        # hash of the canonical request
 *   printf 'HMAC-SHA256\n20250101T120000Z\n20250101/cn-north-1/cv/request\n%s' "$CRH" > sts  # step 8
 *   printf 20250101   | openssl dgst -sha256 -mac HMAC -macopt key:SKEXAMPLEsecret        # kDate
 *   printf cn-north-1 | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KDATE            # kRegion
 *   printf cv         | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KREGION          # kService
 *   printf request    | openssl dgst -sha256 -mac HMAC -macopt hexkey:$KSERVICE         # kSigning
 *   openssl dgst -sha256 -mac HMAC -macopt hexkey:$KSIGNING < sts                       # step 10
 */
const VECTOR = {
  secretKey: 'SKEXAMPLEsecret',
  body: '{"req_key":"beta_t2i_v40","prompt":"a red fox"}',
  xDate: '20250101T120000Z',
  host: 'upstream.test',
  payloadHash: '9d815897bd0bb8cf0dc0a1d2a758daca7d38088f8be1378e724497ead65c042c',
  canonicalRequestHash: 'd318ee7f1b297149d7069a359f61ae94d7168399f66b1abdbf2f408488147e76',
  kDate: '0b421ee80faa7cf9e06aa17d61185fd098aa16a590bdb6359322d58caa6a35cf',
  kSigning: 'd6da938c6b7a720e56e46755d8a6d38dfeb057a95958b40a9982080ef81ffa04',
  signature: '7ab5c3e115ba361d7a4f50777eb1d77695e27c561899307eb1145f8525815cb8',
};
const SIGNED_HEADERS = ['content-type', 'host', 'x-content-sha256', 'x-date'];

describe('BETA-HMAC-SHA256', () => {
  const canonicalRequest = betaCanonicalRequest({
    method: 'POST',
    path: '/',
    canonicalQuery: betaCanonicalQuery('Version=2022-08-31&Action=CVSync2AsyncSubmitTask'),
    headers: {
      'content-type': ' application/json ',
      host: VECTOR.host,
      'x-content-sha256': VECTOR.payloadHash,
      'x-date': VECTOR.xDate,
    },
    signedHeaders: SIGNED_HEADERS,
    payloadHash: VECTOR.payloadHash,
  });

  it('hashes the body bytes, and the empty string for an empty body', () => {
    expect(betaPayloadHash(VECTOR.body)).toBe(VECTOR.payloadHash);
    expect(betaPayloadHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('builds the six-part canonical request with its empty line, trimming header values', () => {
    expect(canonicalRequest).toBe(
      [
        'POST',
        '/',
        'Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
        'content-type:application/json',
        `host:${VECTOR.host}`,
        `x-content-sha256:${VECTOR.payloadHash}`,
        `x-date:${VECTOR.xDate}`,
        '',
        SIGNED_HEADERS.join(';'),
        VECTOR.payloadHash,
      ].join('\n'),
    );
    expect(betaPayloadHash(canonicalRequest)).toBe(VECTOR.canonicalRequestHash);
  });

  it('builds the four-line string to sign', () => {
    expect(betaStringToSign(VECTOR.xDate, betaScope('20250101'), canonicalRequest)).toBe(
      `HMAC-SHA256\n${VECTOR.xDate}\n20250101/cn-north-1/cv/request\n${VECTOR.canonicalRequestHash}`,
    );
  });

  it('derives the signing key and the signature of the vector', () => {
    const signingKey = betaSigningKey(VECTOR.secretKey, '20250101');
    expect(signingKey.toString('hex')).toBe(VECTOR.kSigning);
    expect(
      betaSignature(signingKey, betaStringToSign(VECTOR.xDate, betaScope('20250101'), canonicalRequest)),
    ).toBe(VECTOR.signature);
    // kDate alone, to locate a mistake in the chain if the final value ever differs.
    expect(betaSignature(Buffer.from(VECTOR.secretKey), '20250101')).toBe(VECTOR.kDate);
  });

  it('encodes the canonical query per RFC 3986 and sorts by key, then value', () => {
    expect(betaCanonicalQuery('b=2&a=x%20y&a=%2A&c=(1)!&d')).toBe('a=%2A&a=x%20y&b=2&c=%281%29%21&d=');
    expect(betaCanonicalQuery('k=a~b-c_d.e&k2=%E2%82%AC')).toBe('k=a~b-c_d.e&k2=%E2%82%AC');
  });
});
