export * from './local/local-object.store';
export * from './object-id.util';
export * from './object-store';
export * from './object-store.factory';
// Types only: the S3 store is loaded by createObjectStore when configured.
export type { S3ObjectStoreOptions } from './s3/s3-object.store';
export * from './stored-file-url';
