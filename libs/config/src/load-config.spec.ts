import { InvalidConfigurationError } from './invalid-configuration.error';
import { loadConfig } from './load-config';

const MASTER_KEY = 'ab'.repeat(32);
const OLD_KEY = 'cd'.repeat(32);
const ADMIN_TOKEN = 'admin-token-of-enough-length';
const REQUIRED = { ADMIN_TOKEN, MASTER_KEY };

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('applies every documented default when only the required variables are set', () => {
    const config = loadConfig(REQUIRED);

    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/gateway',
      databasePoolSize: 10,
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'gw',
      adminApiEnabled: true,
      adminToken: ADMIN_TOKEN,
      jsonBodyLimitBytes: 20971520,
      logLevel: 'info',
      keyCacheTtlMs: 5000,
      upstreamHeadersTimeoutMs: 60000,
      maxAttempts: 3,
      circuitFailureThreshold: 5,
      circuitWindowMs: 30000,
      circuitCooldownMs: 15000,
      shutdownGraceMs: 10000,
      holdTtlMs: 600000,
      leaseHoldsAhead: 32,
      leaseIdleMs: 2000,
      leaseTtlMs: 60000,
      ssrfAllowHosts: [],
      safeFetchMaxBytes: 52428800,
      safeFetchTimeoutMs: 30000,
      imageTaskTimeoutMs: 120000,
      imageTaskPollIntervalMs: 1000,
      taskSubmitAtCreateMs: 0,
      objectSweepIntervalMs: 900000,
      metricsEnabled: true,
      heapGrowingPercent: 30,
      heapPretenuring: false,
    });
    expect(config.masterKeys.currentVersion).toBe(1);
    expect(config.masterKeys.currentKey.equals(Buffer.from(MASTER_KEY, 'hex'))).toBe(true);
    expect([...config.masterKeys.keys.keys()]).toEqual([1]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads explicit values', () => {
    const config = loadConfig({
      ...REQUIRED,
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://user:pw@db:5432/other',
      DATABASE_POOL_SIZE: '25',
      REDIS_URL: 'rediss://cache:6380/2',
      REDIS_PREFIX: 'gw-test',
      JSON_BODY_LIMIT_BYTES: '1048576',
      LOG_LEVEL: 'DEBUG',
      KEY_CACHE_TTL_MS: '0',
      MAX_ATTEMPTS: '5',
      SSRF_ALLOW_HOSTS: ' Sim.Local , 10.0.0.0/8,, ',
      SAFE_FETCH_MAX_BYTES: '2048',
      SAFE_FETCH_TIMEOUT_MS: '500',
      IMAGE_TASK_TIMEOUT_MS: '5000',
      IMAGE_TASK_POLL_INTERVAL_MS: '50',
      TASK_SUBMIT_AT_CREATE_MS: '5000',
      METRICS_ENABLED: 'false',
      HEAP_GROWING_PERCENT: '0',
      HEAP_PRETENURING: 'true',
    });

    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://user:pw@db:5432/other',
      databasePoolSize: 25,
      redisUrl: 'rediss://cache:6380/2',
      redisPrefix: 'gw-test',
      jsonBodyLimitBytes: 1048576,
      logLevel: 'debug',
      keyCacheTtlMs: 0,
      maxAttempts: 5,
      ssrfAllowHosts: ['sim.local', '10.0.0.0/8'],
      safeFetchMaxBytes: 2048,
      safeFetchTimeoutMs: 500,
      imageTaskTimeoutMs: 5000,
      taskSubmitAtCreateMs: 5000,
      imageTaskPollIntervalMs: 50,
      metricsEnabled: false,
      heapGrowingPercent: 0,
      heapPretenuring: true,
    });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ ...REQUIRED, PORT: '', LOG_LEVEL: '   ' })).toMatchObject({
      port: 8080,
      logLevel: 'info',
    });
  });

  it('builds a keyring from the current key and the previous ones', () => {
    const config = loadConfig({
      ...REQUIRED,
      MASTER_KEY_VERSION: '3',
      MASTER_KEYS_PREVIOUS: `1:${OLD_KEY}, 2:${'ef'.repeat(32)}`,
    });

    expect(config.masterKeys.currentVersion).toBe(3);
    expect([...config.masterKeys.keys.keys()].sort()).toEqual([1, 2, 3]);
    expect(config.masterKeys.keys.get(1)?.toString('hex')).toBe(OLD_KEY);
    expect(config.masterKeys.keys.get(3)?.toString('hex')).toBe(MASTER_KEY);
  });

  it('reports every problem at once in one readable message', () => {
    const env = { PORT: 'eighty', MASTER_KEY: 'tooshort', LOG_LEVEL: 'loud', METRICS_ENABLED: 'maybe' };

    expect(() => loadConfig(env)).toThrow(
      [
        'Invalid configuration:',
        '- PORT must be an integer between 0 and 65535 (got "eighty")',
        '- ADMIN_TOKEN is required: must be at least 16 characters',
        '- MASTER_KEY must be 64 hex characters (32 bytes); generate one with `openssl rand -hex 32`',
        '- LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
        '- METRICS_ENABLED must be true or false (got "maybe")',
      ].join('\n'),
    );
  });

  it('never echoes secret values in problems', () => {
    const secretish = 'short-secret';
    const problems = problemsOf({
      ADMIN_TOKEN: secretish,
      MASTER_KEY: `${secretish}-not-hex`,
      MASTER_KEYS_PREVIOUS: `1:${secretish}`,
      DATABASE_URL: `mysql://user:${secretish}@db/x`,
    });

    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).not.toContain(secretish);
  });

  it.each([
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['DATABASE_POOL_SIZE', '0'],
    ['MAX_ATTEMPTS', '11'],
    ['KEY_CACHE_TTL_MS', '1e3'],
    ['HOLD_TTL_MS', '999'],
    ['LEASE_HOLDS_AHEAD', '-1'],
    ['LEASE_TTL_MS', '3999'],
    ['JSON_BODY_LIMIT_BYTES', '100'],
    ['CIRCUIT_FAILURE_THRESHOLD', '0'],
    ['REDIS_URL', 'http://cache:6379'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_PREFIX', 'has space'],
    ['SSRF_ALLOW_HOSTS', 'ok.host,bad host!'],
    ['MASTER_KEY_VERSION', '0'],
  ])('rejects %s=%s', (name, value) => {
    const problems = problemsOf({ ...REQUIRED, [name]: value });

    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}`));
  });

  it.each([
    ['1:zz', 'MASTER_KEYS_PREVIOUS entry 1 must be <version>:<64 hex characters>'],
    [`0:${OLD_KEY}`, 'MASTER_KEYS_PREVIOUS entry 1 must have a version of at least 1'],
    [`1:${OLD_KEY}`, 'MASTER_KEYS_PREVIOUS entry 1 reuses the current MASTER_KEY_VERSION 1'],
    [`2:${OLD_KEY},2:${OLD_KEY}`, 'MASTER_KEYS_PREVIOUS entry 2 repeats version 2'],
  ])('rejects MASTER_KEYS_PREVIOUS=%s', (previous, problem) => {
    expect(problemsOf({ ...REQUIRED, MASTER_KEYS_PREVIOUS: previous })).toEqual([problem]);
  });

  it('needs no admin token on a replica without the admin API, and ignores one given', () => {
    expect(loadConfig({ MASTER_KEY, ADMIN_API_ENABLED: 'false' })).toMatchObject({
      adminApiEnabled: false,
      adminToken: '',
    });
    expect(loadConfig({ ...REQUIRED, ADMIN_API_ENABLED: 'off' }).adminToken).toBe('');
    expect(problemsOf({ MASTER_KEY, ADMIN_API_ENABLED: 'sometimes' })).toEqual([
      'ADMIN_API_ENABLED must be true or false (got "sometimes")',
      'ADMIN_TOKEN is required: must be at least 16 characters',
    ]);
  });

  it('rejects an admin token shorter than 16 characters', () => {
    expect(problemsOf({ ...REQUIRED, ADMIN_TOKEN: 'fifteen-chars!!' })).toEqual([
      'ADMIN_TOKEN must be at least 16 characters',
    ]);
  });
});
