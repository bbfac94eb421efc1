import { gammaBearerToken } from './gamma-token';

const NOON_2026_11_24 = Date.UTC(2026, 10, 24, 12, 0, 0);

/**
 * Computed outside the implementation with openssl, following upstreams.md §5.8 (now = 1795521600):
 *
 *   H=$(printf '%s' '{"alg":"HS256","typ":"JWT"}' | openssl base64 -A | tr '+/' '-_' | tr -d '=')
 *   C=$(printf '%s' '{"iss":"GAKexample0123","exp":1795523400,"nbf":1795521595}' | openssl base64 -A | tr '+/' '-_' | tr -d '=')
 *   printf '%s' "$H.$C" | openssl dgst -sha256 -mac HMAC -macopt 'key:c2VjcmV0+/key=' -binary \
 *     | openssl base64 -A | tr '+/' '-_' | tr -d '='
 */
const OPENSSL_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9' +
  '.eyJpc3MiOiJHQUtleGFtcGxlMDEyMyIsImV4cCI6MTc5NTUyMzQwMCwibmJmIjoxNzk1NTIxNTk1fQ' +
  '.nxKQb5punO0kjkVxpjwuQVB28Y_xHog4qf14dnMCDj4';

describe('gammaBearerToken', () => {
  it('matches a token computed with openssl from the spec text', () => {
    expect(
      gammaBearerToken({ accessKey: 'GAKexample0123', secretKey: 'c2VjcmV0+/key=', nowMs: NOON_2026_11_24 }),
    ).toBe(OPENSSL_TOKEN);
  });

  it('counts whole seconds: a time within the same second signs the same token', () => {
    const input = { accessKey: 'GAKexample0123', secretKey: 'c2VjcmV0+/key=' };
    expect(gammaBearerToken({ ...input, nowMs: NOON_2026_11_24 + 999 })).toBe(OPENSSL_TOKEN);
    expect(gammaBearerToken({ ...input, nowMs: NOON_2026_11_24 + 1000 })).not.toBe(OPENSSL_TOKEN);
  });

  it('differs with the secret', () => {
    const token = gammaBearerToken({
      accessKey: 'GAKexample0123',
      secretKey: 'other',
      nowMs: NOON_2026_11_24,
    });
    expect(token.split('.').slice(0, 2)).toEqual(OPENSSL_TOKEN.split('.').slice(0, 2));
    expect(token.split('.')[2]).not.toBe(OPENSSL_TOKEN.split('.')[2]);
  });
});
