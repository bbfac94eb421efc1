import type { Client } from 'pg';

/** Ends every connection to the database but the admin's own, as a Postgres restart does. */
export function terminateBackends(admin: Client, databaseName: string): Promise<unknown> {
  return admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [databaseName],
  );
}

/**
 * Takes the database down for its clients: new connections are refused and the open ones terminated,
 * so that every statement fails, none by luck of timing. `allowConnections` brings it back.
 */
export async function refuseConnections(admin: Client, databaseName: string): Promise<void> {
  await admin.query(`alter database "${databaseName}" with allow_connections false`);
  await terminateBackends(admin, databaseName);
}

export async function allowConnections(admin: Client, databaseName: string): Promise<void> {
  await admin.query(`alter database "${databaseName}" with allow_connections true`);
}

/** Runs `during` while the database refuses connections; they are allowed again after, also when it throws. */
export async function whileDatabaseRefusesConnections<T>(
  admin: Client,
  databaseName: string,
  during: () => Promise<T>,
): Promise<T> {
  try {
    await refuseConnections(admin, databaseName);
    return await during();
  } finally {
    await allowConnections(admin, databaseName);
  }
}
