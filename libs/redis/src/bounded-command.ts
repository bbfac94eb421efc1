import type { RedisConnection } from './redis-connection.factory';

/**
 * Sends one Redis call that a request waits for, without letting an outage hold the request: the
 * shared connections retry forever (BullMQ needs that), so a command sent while disconnected would
 * wait in ioredis' offline queue until Redis is back. Refused at once when the connection is not
 * ready, rejected after `timeoutMs` when Redis does not answer. A command already sent still runs if
 * Redis comes back; callers only use this for calls whose late effect lapses on its own.
 */
export async function boundedCommand<T>(
  redis: Pick<RedisConnection, 'status'>,
  timeoutMs: number,
  send: () => Promise<T>,
): Promise<T> {
  if (redis.status !== 'ready') throw new Error(`Redis is ${redis.status}`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([send(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
