// The two faults that act on the shared servers, each limited to what the stack under test owns: the
// backends of its database, and the Redis connections of its processes. Nothing is flushed or shut
// down (other programs use the same Postgres and Redis).
import pg from 'pg';
import { Redis } from 'ioredis';
import { databaseUrlFor } from '../gateway-state.mjs';
import { localAddressesOf } from './process-sockets.mjs';
import { clientIdsAt, parseClientList } from './redis-clients.mjs';

/** Terminates every backend connected to `database`; returns how many. */
export async function terminatePostgresBackends(database) {
  // Connected to another database, so that the statement's own backend is not among those ended.
  const client = new pg.Client({ connectionString: databaseUrlFor('postgres') });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [database],
    );
    return { detail: `${rows.filter((row) => row.ended).length} backends of ${database} terminated` };
  } finally {
    await client.end();
  }
}

/**
 * CLIENT KILL of every connection that `processes` ({ name, pid }) hold to the Redis at `redisUrl`,
 * found by matching their sockets' local addresses with CLIENT LIST; returns the count per process.
 */
export async function cutRedisConnections(redisUrl, processes) {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const redisPort = Number(new URL(redisUrl).port || 6379);
    const clients = parseClientList(await redis.client('LIST'));
    const killed = [];
    for (const { name, pid } of processes) {
      let count = 0;
      // The filter form answers how many it killed: 0 for a client that closed since the listing.
      for (const id of clientIdsAt(clients, localAddressesOf(pid, redisPort))) {
        count += Number(await redis.client('KILL', 'ID', id));
      }
      if (count > 0) killed.push({ name, count });
    }
    const total = killed.reduce((sum, entry) => sum + entry.count, 0);
    if (total === 0) throw new Error('found no Redis connection of the stack processes to cut');
    const perProcess = killed.map(({ name, count }) => `${name} ${count}`).join(', ');
    return { detail: `${total} Redis connections killed (${perProcess})` };
  } finally {
    redis.disconnect();
  }
}
