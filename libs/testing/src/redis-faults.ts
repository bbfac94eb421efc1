import type Redis from 'ioredis';

/**
 * What a Redis restart that lost its data does, confined to one test's key prefix: other tests share
 * the server, so never FLUSHALL or FLUSHDB. Returns how many keys were deleted.
 */
export async function deleteKeysUnderPrefix(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<
    string[]
  >) {
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  }
  return deleted;
}

/**
 * Closes every connection whose client name starts with `prefix:` (the workers name theirs so), as a
 * restarting Redis does: ioredis reconnects and emits 'ready'. Returns how many were closed.
 */
export async function killClientsNamedUnder(redis: Redis, prefix: string): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  const ids = list
    .split('\n')
    .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2))))
    .filter((client) => typeof client['name'] === 'string' && client['name'].startsWith(`${prefix}:`))
    .map((client) => String(client['id']));
  for (const id of ids) await redis.client('KILL', 'ID', id);
  return ids.length;
}
