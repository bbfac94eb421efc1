import type { GatewayLogger } from './create-logger';

/** What reports a lost or refused connection through an 'error' event: a pg pool, an ioredis client, a BullMQ queue. */
export interface ConnectionErrorSource {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Logs the connection's 'error' events as structured lines (`<kind> connection error`), and returns
 * the connection. Without a listener, an 'error' event ends the process (a pg pool whose idle client
 * lost its backend, by Node's rule for unhandled 'error' events) or is printed raw on standard error
 * (ioredis, BullMQ), which breaks the JSON log. The connection recovers by itself (pg opens a new
 * client on the next query, ioredis reconnects), and the request that needed it fails on its own.
 */
export function logConnectionErrors<Source extends ConnectionErrorSource>(
  source: Source,
  logger: GatewayLogger,
  kind: 'postgres' | 'redis',
  name: string,
): Source {
  source.on('error', (error) => logger.error({ err: error, connection: name }, `${kind} connection error`));
  return source;
}
