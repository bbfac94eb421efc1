import { resolve } from 'node:path';
import type { EnvironmentReader } from './environment-reader';
import type { ObjectStoreConfig, S3ObjectStoreConfig } from './gateway-config';

const OBJECT_STORE_KINDS = ['local', 's3'] as const;
const DEFAULT_RETENTION_HOURS = 7 * 24;
// Ten years: far enough for any retention policy, well inside what an object id can encode.
const MAX_RETENTION_HOURS = 10 * 365 * 24;
// The bucket naming rule shared by S3-compatible servers: 3–63 lower-case letters, digits, dots, hyphens.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
// Characters every S3-compatible server takes in a key without escaping.
const KEY_PREFIX = /^[A-Za-z0-9!_.*'()/-]{0,256}$/;

/**
 * OBJECT_STORE picks the backend (`local`, the default, or `s3`); the OBJECT_STORE_S3_* variables are
 * read only for `s3`. OBJECT_STORE_RETENTION_HOURS applies to both.
 */
export function parseObjectStoreConfig(reader: EnvironmentReader): ObjectStoreConfig {
  const kind = reader.oneOf('OBJECT_STORE', OBJECT_STORE_KINDS, 'local');
  const retentionHours = reader.integer('OBJECT_STORE_RETENTION_HOURS', DEFAULT_RETENTION_HOURS, {
    min: 1,
    max: MAX_RETENTION_HOURS,
  });
  if (kind === 's3') return { kind, retentionHours, ...readS3Settings(reader) };
  return { kind, retentionHours, directory: resolve(reader.string('OBJECT_STORE_DIR', 'data/objects')) };
}

function readS3Settings(reader: EnvironmentReader): Omit<S3ObjectStoreConfig, 'kind' | 'retentionHours'> {
  const endpoint = reader.raw('OBJECT_STORE_S3_ENDPOINT')
    ? reader.url('OBJECT_STORE_S3_ENDPOINT', '', ['http:', 'https:'])
    : undefined;
  const region = requiredForS3(reader, 'OBJECT_STORE_S3_REGION');
  const bucket = requiredForS3(reader, 'OBJECT_STORE_S3_BUCKET');
  if (bucket && !BUCKET_NAME.test(bucket)) {
    reader.addProblem(
      `OBJECT_STORE_S3_BUCKET must be 3 to 63 of a-z 0-9 . - starting and ending with a letter or digit (got "${bucket}")`,
    );
  }
  const keyPrefix = reader.string('OBJECT_STORE_S3_PREFIX', '');
  if (!KEY_PREFIX.test(keyPrefix)) {
    reader.addProblem(
      `OBJECT_STORE_S3_PREFIX must be at most 256 of A-Z a-z 0-9 ! _ . * ' ( ) / - (got "${keyPrefix}")`,
    );
  }
  return {
    endpoint,
    region,
    bucket,
    keyPrefix,
    credentials: readCredentials(reader),
    forcePathStyle: reader.boolean('OBJECT_STORE_S3_FORCE_PATH_STYLE', false),
  };
}

function requiredForS3(reader: EnvironmentReader, name: string): string {
  const value = reader.raw(name);
  if (value === undefined) reader.addProblem(`${name} is required when OBJECT_STORE=s3`);
  return value ?? '';
}

/** Both keys or neither: half a key pair is a typo that would otherwise surface as a 403 much later. */
function readCredentials(reader: EnvironmentReader): S3ObjectStoreConfig['credentials'] {
  const accessKeyId = reader.raw('OBJECT_STORE_S3_ACCESS_KEY_ID');
  const secretAccessKey = reader.raw('OBJECT_STORE_S3_SECRET_ACCESS_KEY');
  if (accessKeyId !== undefined && secretAccessKey !== undefined) return { accessKeyId, secretAccessKey };
  if (accessKeyId !== undefined || secretAccessKey !== undefined) {
    reader.addProblem(
      'OBJECT_STORE_S3_ACCESS_KEY_ID and OBJECT_STORE_S3_SECRET_ACCESS_KEY must be set together (or both left unset)',
    );
  }
  return undefined;
}
