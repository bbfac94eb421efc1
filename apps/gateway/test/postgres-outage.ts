import type { Client } from 'pg';

/** Ends every connection to the database but the admin's own, as a Postgres restart does. */
export function terminateBackends(admin: Client, databaseName: string): Promise<unknown> {
  return admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [databaseName],
  );
}

/**
 * Runs `during` while the database is down for its clients: new connections are refused and the open
 * ones terminated, so that every statement fails, none by luck of timing. Connections are allowed again
 * afterwards, also when `during` throws.
 */
export async function whileDatabaseRefusesConnections<T>(
  admin: Client,
  databaseName: string,
  during: () => Promise<T>,
): Promise<T> {
  await admin.query(`alter database "${databaseName}" with allow_connections false`);
  try {
    await terminateBackends(admin, databaseName);
    return await during();
  } finally {
    await admin.query(`alter database "${databaseName}" with allow_connections true`);
  }
}
