export * from './redis-connection.factory';
export * from './bounded-command';
