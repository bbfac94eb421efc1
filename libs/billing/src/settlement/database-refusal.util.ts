import { DatabaseError } from 'pg';

/**
 * Whether Postgres refused a value the statement carried: a data exception (SQLSTATE class 22: out of
 * range, invalid text, …) or an integrity constraint (class 23). Running the same statement again
 * cannot succeed, unlike a lost connection, a timeout or a deadlock, which a retry can get past.
 */
export function isRefusedByDatabase(error: unknown): boolean {
  return (
    error instanceof DatabaseError && (error.code?.startsWith('22') || error.code?.startsWith('23')) === true
  );
}
