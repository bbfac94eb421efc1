export * from './admin/admin-token.util';
export * from './key/api-key.util';
export * from './key/bearer-token.util';
export * from './key/credentials.extract';
export * from './key/key-resolver';
export * from './key/key-row.source';
export * from './key/resolved-key';
export * from './throttle/auth-failure.throttle';
