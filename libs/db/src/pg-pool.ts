import { Client, Pool } from 'pg';

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
  /**
   * The URL reaches Postgres through a pooler in transaction mode (PgBouncer): each transaction may
   * run on another server connection, so nothing may outlive one. Statements are then sent unnamed (a
   * named statement is prepared once per connection, and PgBouncer 1.18 cannot follow it: "prepared
   * statement … does not exist" or "… already exists"), and asynchronous commit is not asked for
   * (PgBouncer refuses the `options` startup parameter, and a session SET would leak into other
   * clients' transactions): the money writes then commit synchronously, slower under contention on
   * one account but never less safe.
   */
  transactionPooler?: boolean;
}

/**
 * A process's pool must get an 'error' listener from its owner (logConnectionErrors of
 * @gateway/observability, with the owner's logger): an idle client whose backend goes away (a
 * Postgres restart, pg_terminate_backend) makes the pool emit 'error', which ends the process unheard.
 */
export function createPgPool(databaseUrl: string, maxConnections = 10, options: PgPoolOptions = {}): Pool {
  const asynchronousCommit = options.asynchronousCommit === true && options.transactionPooler !== true;
  return new Pool({
    connectionString: databaseUrl,
    Client: options.transactionPooler ? UnnamedStatementClient : Client,
    max: maxConnections,
    idleTimeoutMillis: 30_000,
    // A database host that drops packets instead of refusing would otherwise hold a request for the
    // operating system's connect timeout (minutes) before its 503.
    connectionTimeoutMillis: 5_000,
    // perf-machinery: async-commit-money-pool (docs/performance-machinery.md)
    options: asynchronousCommit ? '-c synchronous_commit=off' : undefined,
  });
}

/**
 * A pg client that sends every statement unnamed: Postgres parses it again each time (the cost that
 * named statements save), which is what a transaction-mode pooler requires.
 */
class UnnamedStatementClient extends Client {}

const namedQuery: (...args: unknown[]) => unknown = Client.prototype.query;
UnnamedStatementClient.prototype.query = function query(this: Client, config: unknown, ...rest: unknown[]) {
  return namedQuery.call(this, withoutStatementName(config), ...rest);
} as Client['query'];

/** The query config without its `name`; anything else (a text, a stream, a submittable) as it was. */
export function withoutStatementName(config: unknown): unknown {
  if (typeof config !== 'object' || config === null || !('name' in config)) return config;
  if (typeof (config as { submit?: unknown }).submit === 'function') return config;
  const { name: _name, ...unnamed } = config as { name?: unknown };
  return unnamed;
}
