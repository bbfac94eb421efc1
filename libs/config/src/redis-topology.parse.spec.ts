import { InvalidConfigurationError } from './invalid-configuration.error';
import { loadConfig } from './load-config';

const REQUIRED = { ADMIN_TOKEN: 'admin-token-of-enough-length', MASTER_KEY: 'ab'.repeat(32) };

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig({ ...REQUIRED, ...env });
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('Redis topology and prefix', () => {
  it('stays a single Redis with the plain prefix by default', () => {
    const config = loadConfig(REQUIRED);
    expect(config.redis).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(config.redisPrefix).toBe('gw');
    expect(config.queuePrefix).toBe('gw');
  });

  it('reads cluster seed nodes, and gives BullMQ a hash-tagged prefix while the own keys keep the plain one', () => {
    const config = loadConfig({
      ...REQUIRED,
      REDIS_CLUSTER_NODES: 'cache-1:7000, 10.0.0.2:7001,[::1]:7002',
      REDIS_PREFIX: 'gw-prod',
      REDIS_PASSWORD: 'node-password',
      REDIS_TLS: 'true',
    });
    expect(config.redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'cache-1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: undefined,
      password: 'node-password',
      tls: true,
    });
    expect(config.redisPrefix).toBe('gw-prod');
    expect(config.queuePrefix).toBe('{gw-prod}');
  });

  it('keeps a prefix that already carries a hash tag, clustered or not', () => {
    expect(loadConfig({ ...REQUIRED, REDIS_PREFIX: 'app:{gw}' })).toMatchObject({
      redisPrefix: 'app:{gw}',
      queuePrefix: 'app:{gw}',
    });
    expect(loadConfig({ ...REQUIRED, REDIS_CLUSTER_NODES: 'a:1', REDIS_PREFIX: 'app:{gw}' })).toMatchObject({
      redisPrefix: 'app:{gw}',
      queuePrefix: 'app:{gw}',
    });
  });

  it('reads Sentinels and the master name they watch', () => {
    const config = loadConfig({
      ...REQUIRED,
      REDIS_SENTINELS: 's1:26379,s2:26379',
      REDIS_SENTINEL_MASTER: 'primary',
      REDIS_SENTINEL_PASSWORD: 'sentinel-password',
    });
    expect(config.redis).toMatchObject({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      masterName: 'primary',
      sentinelPassword: 'sentinel-password',
      tls: false,
    });
    expect(config.queuePrefix).toBe('gw');
  });

  it.each([
    [{ REDIS_CLUSTER_NODES: 'a:1', REDIS_SENTINELS: 'b:2', REDIS_SENTINEL_MASTER: 'm' }, 'exclusive'],
    [{ REDIS_CLUSTER_NODES: 'a:1', REDIS_URL: 'redis://c:6379' }, 'REDIS_URL must be unset'],
    [{ REDIS_SENTINELS: 'b:2' }, 'REDIS_SENTINEL_MASTER is required'],
    [{ REDIS_CLUSTER_NODES: 'no-port' }, '"no-port" must be host:port'],
    [{ REDIS_CLUSTER_NODES: 'a:70000' }, '"a:70000" must be host:port'],
    [{ REDIS_PREFIX: 'a{b}{c}' }, 'at most one {hash tag}'],
    [{ REDIS_PREFIX: 'a{}' }, 'at most one {hash tag}'],
    [{ REDIS_PREFIX: 'x'.repeat(65) }, 'REDIS_PREFIX must be 1 to 64'],
  ])('refuses %j', (env, problem) => {
    expect(problemsOf(env).join('\n')).toContain(problem);
  });

  it('never echoes the Redis password in a problem', () => {
    const problems = problemsOf({ REDIS_CLUSTER_NODES: 'bad', REDIS_PASSWORD: 'very-secret-value' });
    expect(problems.join('\n')).not.toContain('very-secret-value');
  });
});

describe('database URLs', () => {
  it('uses DATABASE_URL for sessions too, and no pooler, when DATABASE_DIRECT_URL is unset', () => {
    const config = loadConfig({ ...REQUIRED, DATABASE_URL: 'postgresql://app@db:5432/gw' });
    expect(config.databaseDirectUrl).toBe('postgresql://app@db:5432/gw');
    expect(config.databaseBehindTransactionPooler).toBe(false);
  });

  it('marks DATABASE_URL as a transaction pooler when a direct URL is given', () => {
    const config = loadConfig({
      ...REQUIRED,
      DATABASE_URL: 'postgresql://app@pooler:6432/gw',
      DATABASE_DIRECT_URL: 'postgresql://app@db:5432/gw?sslmode=verify-full',
    });
    expect(config.databaseDirectUrl).toBe('postgresql://app@db:5432/gw?sslmode=verify-full');
    expect(config.databaseBehindTransactionPooler).toBe(true);
  });

  it('refuses a direct URL that is not a Postgres URL', () => {
    expect(problemsOf({ DATABASE_DIRECT_URL: 'mysql://db/gw' }).join('\n')).toContain(
      'DATABASE_DIRECT_URL must be a URL',
    );
  });
});
