export * from './test-database';
export * from './wait-for';
export * from './redis-faults';
export * from './test-run-files';
export * from './worker-redis-loss';
export * from './built-apps';
