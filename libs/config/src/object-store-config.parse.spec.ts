import { resolve } from 'node:path';
import { InvalidConfigurationError } from './invalid-configuration.error';
import { loadConfig } from './load-config';

const REQUIRED = { ADMIN_TOKEN: 'admin-token-of-enough-length', MASTER_KEY: 'ab'.repeat(32) };
const S3_REQUIRED = {
  ...REQUIRED,
  OBJECT_STORE: 's3',
  OBJECT_STORE_S3_REGION: 'test-1',
  OBJECT_STORE_S3_BUCKET: 'images',
};

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof InvalidConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('expected loadConfig to throw');
}

describe('object store settings', () => {
  it('defaults to a local directory under the working directory, kept for a week, with no public base URL', () => {
    const config = loadConfig(REQUIRED);

    expect(config.objectStore).toEqual({
      kind: 'local',
      directory: resolve('data/objects'),
      retentionHours: 168,
    });
    expect(config.publicBaseUrl).toBeUndefined();
  });

  it('resolves a relative OBJECT_STORE_DIR and reads the retention', () => {
    const config = loadConfig({
      ...REQUIRED,
      OBJECT_STORE_DIR: 'var/store',
      OBJECT_STORE_RETENTION_HOURS: '2',
    });

    expect(config.objectStore).toEqual({ kind: 'local', directory: resolve('var/store'), retentionHours: 2 });
  });

  it('reads every S3 setting', () => {
    const config = loadConfig({
      ...S3_REQUIRED,
      OBJECT_STORE: 'S3',
      OBJECT_STORE_S3_ENDPOINT: 'http://storage.internal:9000',
      OBJECT_STORE_S3_PREFIX: 'gateway/objects/',
      OBJECT_STORE_S3_ACCESS_KEY_ID: 'access',
      OBJECT_STORE_S3_SECRET_ACCESS_KEY: 'secret',
      OBJECT_STORE_S3_FORCE_PATH_STYLE: 'true',
    });

    expect(config.objectStore).toEqual({
      kind: 's3',
      retentionHours: 168,
      endpoint: 'http://storage.internal:9000',
      region: 'test-1',
      bucket: 'images',
      keyPrefix: 'gateway/objects/',
      credentials: { accessKeyId: 'access', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
  });

  it('leaves the endpoint and credentials to the SDK when unset', () => {
    expect(loadConfig(S3_REQUIRED).objectStore).toMatchObject({
      endpoint: undefined,
      credentials: undefined,
      keyPrefix: '',
      forcePathStyle: false,
    });
  });

  it('ignores S3 settings for the local store', () => {
    expect(loadConfig({ ...REQUIRED, OBJECT_STORE_S3_BUCKET: 'NOT VALID' }).objectStore.kind).toBe('local');
  });

  it('reports every S3 problem at once without echoing the secret key', () => {
    const problems = problemsOf({
      ...REQUIRED,
      OBJECT_STORE: 's3',
      OBJECT_STORE_S3_ENDPOINT: 'ftp://storage.internal',
      OBJECT_STORE_S3_SECRET_ACCESS_KEY: 'very-secret-value',
      OBJECT_STORE_S3_PREFIX: 'with space',
    });

    expect(problems).toEqual([
      'OBJECT_STORE_S3_ENDPOINT must be a URL starting with http:// or https://',
      'OBJECT_STORE_S3_REGION is required when OBJECT_STORE=s3',
      'OBJECT_STORE_S3_BUCKET is required when OBJECT_STORE=s3',
      `OBJECT_STORE_S3_PREFIX must be at most 256 of A-Z a-z 0-9 ! _ . * ' ( ) / - (got "with space")`,
      'OBJECT_STORE_S3_ACCESS_KEY_ID and OBJECT_STORE_S3_SECRET_ACCESS_KEY must be set together (or both left unset)',
    ]);
    expect(problems.join('\n')).not.toContain('very-secret-value');
  });

  it.each([
    ['OBJECT_STORE', 'cloud'],
    ['OBJECT_STORE_RETENTION_HOURS', '0'],
    ['OBJECT_STORE_S3_BUCKET', 'Upper_Case'],
  ])('rejects %s=%s', (name, value) => {
    const problems = problemsOf({ ...S3_REQUIRED, [name]: value });

    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}`));
  });
});

describe('PUBLIC_BASE_URL', () => {
  it('drops a trailing slash and keeps a path', () => {
    expect(loadConfig({ ...REQUIRED, PUBLIC_BASE_URL: 'https://gateway.test/' }).publicBaseUrl).toBe(
      'https://gateway.test',
    );
    expect(loadConfig({ ...REQUIRED, PUBLIC_BASE_URL: 'https://gateway.test/api//' }).publicBaseUrl).toBe(
      'https://gateway.test/api',
    );
  });

  it.each([
    'gateway.test',
    'ftp://gateway.test',
    'https://user:pw@gateway.test',
    'https://gateway.test/?a=1',
  ])('rejects %s without echoing it', (value) => {
    expect(problemsOf({ ...REQUIRED, PUBLIC_BASE_URL: value })).toEqual([
      'PUBLIC_BASE_URL must be an http:// or https:// URL without credentials, query or fragment',
    ]);
  });
});
