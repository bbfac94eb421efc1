import type { ObjectStoreConfig } from '@gateway/config';
import { LocalObjectStore } from './local/local-object.store';
import { systemObjectStoreClock, type ObjectStore, type ObjectStoreClock } from './object-store';

/** The store the configuration names (OBJECT_STORE); plain construction, usable with or without Nest. */
export async function createObjectStore(
  config: ObjectStoreConfig,
  clock: ObjectStoreClock = systemObjectStoreClock,
): Promise<ObjectStore> {
  if (config.kind === 'local') {
    return new LocalObjectStore({
      directory: config.directory,
      retentionHours: config.retentionHours,
      clock,
    });
  }
  // Loaded only when chosen: the S3 SDK costs a process about 20 MiB and 0.1 s of start-up.
  const [{ S3ObjectStore }, { createS3Client }] = await Promise.all([
    import('./s3/s3-object.store'),
    import('./s3/s3-client.factory'),
  ]);
  return new S3ObjectStore({
    client: createS3Client(config),
    bucket: config.bucket,
    keyPrefix: config.keyPrefix,
    retentionHours: config.retentionHours,
    clock,
  });
}
