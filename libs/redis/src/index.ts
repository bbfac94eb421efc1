export * from './redis-connection.factory';
