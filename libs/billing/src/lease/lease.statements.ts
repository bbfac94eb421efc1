/**
 * Statements over the lease functions of migration `account_leases`; each locks the accounts involved
 * before it touches a lease. Amounts are int8 and travel as decimal strings.
 */

/** Opens or grows a lease and pushes its expiry. Parameters: lease, account, owner, need, want, TTL (ms). */
export const reserveLeaseStatement = {
  name: 'billing_reserve_lease',
  text: 'SELECT state, granted, available FROM reserve_lease($1, $2, $3, $4::int8, $5::int8, $6::int8)',
};

/** Closes the given leases and gives what they reserve back. Parameter: lease ids. */
export const closeLeasesStatement = {
  name: 'billing_close_leases',
  text: 'SELECT lease_id FROM close_leases($1::text[])',
};

/** Closes up to $1 leases whose owner stopped renewing them (it died, or lost the database). */
export const closeExpiredLeasesStatement = {
  name: 'billing_close_expired_leases',
  text: `
SELECT lease_id FROM close_leases(ARRAY(
  SELECT id FROM leases
   WHERE status = 'open' AND expires_at < now() AT TIME ZONE 'UTC'
   ORDER BY expires_at
   LIMIT $1::int4))`,
};
