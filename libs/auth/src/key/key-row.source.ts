import type { Pool } from 'pg';
import type { GovernanceColumns } from '../governance/governance-columns.util';

/** The columns of an `api_keys` row (and its account's governance) that resolving a key needs. */
export interface KeyRow extends GovernanceColumns {
  id: string;
  accountId: string;
  prefix: string;
  status: string;
  /** Epoch milliseconds, or null for a key that never expires. */
  expiresAtMs: number | null;
  /** Empty means every model. */
  allowedModels: string[];
}

/** Where the key resolver looks a hash up on a cache miss. */
export interface KeyRowSource {
  findByHash(hash: string): Promise<KeyRow | null>;
}

/**
 * `expires_at` is a timestamp without time zone that holds UTC (Prisma's convention); the epoch of such
 * a value is read as UTC, so the milliseconds are exact whatever the server's time zone.
 */
const findKeyByHashStatement = {
  name: 'auth_find_governed_key_by_hash',
  text: `
SELECT k.id, k.account_id AS "accountId", k.prefix, k.status,
       (extract(epoch FROM k.expires_at) * 1000)::float8 AS "expiresAtMs",
       k.allowed_models AS "allowedModels",
       k.limits AS "keyLimits", k.budget_micros::text AS "keyBudgetMicros",
       k.budget_period AS "keyBudgetPeriod", k.allowed_ips AS "allowedIps",
       a.limits AS "accountLimits", a.budget_micros::text AS "accountBudgetMicros",
       a.budget_period AS "accountBudgetPeriod"
  FROM api_keys k
  LEFT JOIN accounts a ON a.id = k.account_id
 WHERE k.hash = $1`,
};

/**
 * Key lookups as one prepared statement on the shared pg pool: the serving path keeps Prisma's query
 * compiler (about 30 MiB once loaded) out of a gateway that does not serve the admin API.
 */
export function pgKeyRowSource(pool: Pool): KeyRowSource {
  return {
    async findByHash(hash) {
      const { rows } = await pool.query<KeyRow>({ ...findKeyByHashStatement, values: [hash] });
      return rows[0] ?? null;
    },
  };
}
