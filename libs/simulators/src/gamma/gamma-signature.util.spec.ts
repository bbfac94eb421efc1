import {
  gammaCanonicalRequest,
  gammaDateOf,
  gammaPayloadHash,
  gammaScope,
  gammaSignature,
  gammaSigningKey,
  gammaStringToSign,
} from './gamma-signature.util';

/**
 * A fixed vector computed by hand from upstreams.md §5.2, with openssl and no project code:
 *
 *   SK='gamma/secret+Key0123456789'
 *   BODY='{"SubAppId":1500000000,"ModelName":"Gamma","ModelVersion":"3.0-Omni","Prompt":"a fox runs"}'
 *   PH=$(printf '%s' "$BODY" | openssl dgst -sha256 -hex | awk '{print $NF}')                    # step 2
 *   CR=$(printf 'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:upstream.test\n'\
 *          'x-gamma-action:createaigcvideotask\n\ncontent-type;host;x-gamma-action\n%s' "$PH")   # step 3
 *   CRH=$(printf '%s' "$CR" | openssl dgst -sha256 -hex | awk '{print $NF}')
 *   STS=$(printf 'GAMMA-HMAC-SHA256\n1735732800\n2025-01-01/media/gamma_request\n%s' "$CRH")  # step 5
 *   KD=$(printf 2025-01-01    | openssl dgst -sha256 -mac HMAC -macopt "key:GAMMA$SK" -hex)   # step 6
 *   KS=$(printf media         | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KD" -hex)
 *   KG=$(printf gamma_request | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KS" -hex)
 *   printf '%s' "$STS" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KG" -hex             # step 7
 */
const VECTOR = {
  secretKey: 'gamma/secret+Key0123456789',
  body: '{"SubAppId":1500000000,"ModelName":"Gamma","ModelVersion":"3.0-Omni","Prompt":"a fox runs"}',
  timestamp: '1735732800',
  payloadHash: '8d801628b893f0c4969620999b4ee59d41b82cbf33abd6acfb53ce7b7ed8ddb1',
  canonicalRequestHash: 'f1b8664d4c9b5d4829cf92fdca9ed720acdbb978fcb9b87723556c1676efbde5',
  kSigning: '7b1fa896f663cebbb3102d42cb10719792e4a2966f347a93802ff40de5dd7782',
  signature: '82b868b45550905e02b4111e80a6442b437b0bbb22cb73ad8f190c8013e3e2cf',
};

describe('GAMMA-HMAC-SHA256', () => {
  const canonicalRequest = () =>
    gammaCanonicalRequest({
      path: '/',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        host: 'upstream.test',
        'x-gamma-action': 'CreateAigcVideoTask',
      },
      payloadHash: gammaPayloadHash(VECTOR.body),
    });

  it('hashes the body and the canonical request as the hand-computed vector', () => {
    expect(gammaPayloadHash(VECTOR.body)).toBe(VECTOR.payloadHash);
    expect(canonicalRequest()).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:upstream.test\n' +
        `x-gamma-action:createaigcvideotask\n\ncontent-type;host;x-gamma-action\n${VECTOR.payloadHash}`,
    );
    expect(gammaPayloadHash(canonicalRequest())).toBe(VECTOR.canonicalRequestHash);
  });

  it('derives the signing key and signs as the vector', () => {
    const date = gammaDateOf(Number(VECTOR.timestamp));
    expect(date).toBe('2025-01-01');
    expect(gammaSigningKey(VECTOR.secretKey, date).toString('hex')).toBe(VECTOR.kSigning);
    const stringToSign = gammaStringToSign(VECTOR.timestamp, gammaScope(date), canonicalRequest());
    expect(stringToSign).toBe(
      `GAMMA-HMAC-SHA256\n1735732800\n2025-01-01/media/gamma_request\n${VECTOR.canonicalRequestHash}`,
    );
    expect(gammaSignature(gammaSigningKey(VECTOR.secretKey, date), stringToSign)).toBe(VECTOR.signature);
  });

  it('dates a timestamp by its UTC day', () => {
    expect(gammaDateOf(Date.UTC(2024, 11, 31, 23, 59, 59) / 1000)).toBe('2024-12-31');
  });
});
