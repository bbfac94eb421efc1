import { loadConfig } from './load-config';
import { problemsOf, REQUIRED } from './testing/config-problems';

describe('client connection and authentication settings', () => {
  it('defaults to bounded request times, a connection cap, no trusted proxy and a failure throttle', () => {
    expect(loadConfig(REQUIRED)).toMatchObject({
      clientConnections: {
        requestTimeoutMs: 60_000,
        headersTimeoutMs: 10_000,
        maxConnections: 10_000,
        trustProxy: false,
      },
      keyCacheUnknownTtlMs: 1000,
      authFailureLimit: 50,
      authFailureWindowMs: 60_000,
    });
  });

  it('reads explicit values', () => {
    const config = loadConfig({
      ...REQUIRED,
      REQUEST_TIMEOUT_MS: '500',
      HEADERS_TIMEOUT_MS: '300',
      MAX_CONNECTIONS: '3',
      KEY_CACHE_UNKNOWN_TTL_MS: '0',
      AUTH_FAILURE_LIMIT: '0',
      AUTH_FAILURE_WINDOW_MS: '5000',
    });

    expect(config.clientConnections).toMatchObject({
      requestTimeoutMs: 500,
      headersTimeoutMs: 300,
      maxConnections: 3,
    });
    expect(config).toMatchObject({ keyCacheUnknownTtlMs: 0, authFailureLimit: 0, authFailureWindowMs: 5000 });
  });

  it('keeps the default headers timeout within a short request timeout', () => {
    expect(loadConfig({ ...REQUIRED, REQUEST_TIMEOUT_MS: '500' }).clientConnections.headersTimeoutMs).toBe(
      500,
    );
  });

  it('refuses a headers timeout longer than the request timeout, naming both', () => {
    expect(problemsOf({ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' })).toEqual([
      'HEADERS_TIMEOUT_MS (2000) must not exceed REQUEST_TIMEOUT_MS (1000)',
    ]);
  });

  it.each([
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.1, 10.1.0.0/16,fd00::/8, Loopback', ['10.0.0.1', '10.1.0.0/16', 'fd00::/8', 'loopback']],
  ])('reads TRUST_PROXY=%j', (value, expected) => {
    expect(loadConfig({ ...REQUIRED, TRUST_PROXY: value }).clientConnections.trustProxy).toEqual(expected);
  });

  it('refuses TRUST_PROXY entries that are neither addresses nor ranges', () => {
    expect(problemsOf({ TRUST_PROXY: '10.0.0.1,proxy.internal,10.0.0.0/33' })).toEqual([
      'TRUST_PROXY entry "proxy.internal" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
      'TRUST_PROXY entry "10.0.0.0/33" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal',
    ]);
  });
});
