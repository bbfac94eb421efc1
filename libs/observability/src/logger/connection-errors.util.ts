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
  source.on('error', (error) =>
    logger.error({ err: withoutClient(error), connection: name }, `${kind} connection error`),
  );
  return source;
}

/**
 * pg attaches the client to the errors of its pool (`error.client`): its connection parameters, type
 * parsers and buffers, about 8 KB in every line. The line keeps the error's own fields.
 */
function withoutClient(error: Error): Error {
  if (!('client' in error)) return error;
  const copy = Object.assign(new Error(error.message), error, { client: undefined });
  copy.stack = error.stack;
  return copy;
}
