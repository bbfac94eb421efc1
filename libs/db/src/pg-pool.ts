import { Pool } from 'pg';

/**
 * One pg pool per process serves both Prisma (through the driver adapter) and the few hand-written
 * statements of the hot path (the hold), so that a request never waits for a second pool.
 */
export interface PgPoolOptions {
  /**
   * Commit without waiting for the WAL flush. For the hot-path money writes (holds, leases,
   * settlements): every request of an account updates the same row, so a flush inside the row lock
   * serialises the whole account at the disk's pace. A Postgres crash may then lose the last few
   * hundred milliseconds of such commits, each transaction whole: a lost hold reserved nothing, a lost
   * settlement charged nothing (its hold is reopened and released by the reaper), so the client is
   * never charged twice or wrongly; the operator may lose the revenue of that window. A lost lease
   * grant leaves the gateway holding against money the database no longer reserves until that lease
   * closes (at most one lease per account), and the settlements of those holds still land.
   */
  asynchronousCommit?: boolean;
}

/**
 * A process's pool must get an 'error' listener from its owner (logConnectionErrors of
 * @gateway/observability, with the owner's logger): an idle client whose backend goes away (a
 * Postgres restart, pg_terminate_backend) makes the pool emit 'error', which ends the process unheard.
 */
export function createPgPool(databaseUrl: string, maxConnections = 10, options: PgPoolOptions = {}): Pool {
  return new Pool({
    connectionString: databaseUrl,
    max: maxConnections,
    idleTimeoutMillis: 30_000,
    // A database host that drops packets instead of refusing would otherwise hold a request for the
    // operating system's connect timeout (minutes) before its 503.
    connectionTimeoutMillis: 5_000,
    // perf-machinery: async-commit-money-pool (docs/performance-machinery.md)
    options: options.asynchronousCommit ? '-c synchronous_commit=off' : undefined,
  });
}
