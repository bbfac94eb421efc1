import type { Pool, QueryResultRow } from 'pg';

/**
 * Runs one of the admin figures' statements (a few hundred thousand rollup rows summed at most) in a
 * transaction of its own with settings for it alone: no JIT, whose compilation of these wide
 * aggregates cost more than it saved (a few hundred ms per call), and room to hash and sort in memory
 * instead of spilling to disk. SET LOCAL ends with the transaction, so the pooled connection (or a
 * PgBouncer in transaction mode) keeps its defaults.
 */
export async function queryFigures<T extends QueryResultRow>(
  pool: Pool,
  statement: { text: string; values: unknown[] },
): Promise<T[]> {
  const client = await pool.connect();
  let failed = false;
  try {
    await client.query("BEGIN READ ONLY; SET LOCAL jit = off; SET LOCAL work_mem = '64MB'");
    const { rows } = await client.query<T>(statement);
    await client.query('COMMIT');
    return rows;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // A connection whose transaction failed is dropped rather than reused mid-transaction.
    client.release(failed);
  }
}
