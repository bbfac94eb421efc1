import type { Pool } from 'pg';
import { closeExpiredLeasesStatement } from '../lease/lease.statements';
import type { SettlementService } from './settlement.service';

const expiredHoldsStatement = {
  name: 'billing_expired_holds',
  text: `
SELECT request_id, route,
       (extract(epoch FROM (now() AT TIME ZONE 'UTC') - created_at) * 1000)::int8 AS age_ms
  FROM holds
 WHERE status = 'open' AND expires_at < now() AT TIME ZONE 'UTC'
 ORDER BY expires_at
 LIMIT $1::int4`,
};

interface ExpiredHoldRow {
  request_id: string;
  route: string;
  age_ms: string;
}

/**
 * Settles holds that outlived their deadline: the process that took them died (or lost its database
 * connection) before settling. Nothing is captured: whatever the upstream call cost is unknown and the
 * operator absorbs it, which is cheaper for everyone than charging a client for a response it never got.
 */
export class HoldReaper {
  constructor(
    private readonly pool: Pool,
    private readonly settlements: SettlementService,
  ) {}

  /**
   * Settles up to `limit` expired holds and returns how many this call settled. Reapers running at the
   * same time (or a late settlement of the owning request) are safe: the settlement's compare-and-swap
   * lets exactly one of them close each hold.
   */
  async reapExpired(limit: number): Promise<number> {
    const { rows } = await this.pool.query<ExpiredHoldRow>({ ...expiredHoldsStatement, values: [limit] });
    if (rows.length === 0) return 0;
    const { appliedRequestIds } = await this.settlements.settleMany(
      rows.map((hold) => ({
        requestId: hold.request_id,
        captureMicros: 0n,
        log: {
          route: hold.route,
          // No response is known for an abandoned request, hence status 0 and no attempt counted.
          httpStatus: 0,
          endReason: 'abandoned',
          latencyMs: Math.min(Number(hold.age_ms), 2_147_483_647),
          inputTokens: 0,
          outputTokens: 0,
          attempts: 0,
        },
      })),
    );
    return appliedRequestIds.length;
  }

  /**
   * Closes up to `limit` leases that lapsed (their owner died or lost the database) and gives what they
   * reserved back to their accounts; returns how many it closed. Holds that were in flight on them are
   * settled later if their process comes back, with the capture taken from the balance alone.
   */
  async closeExpiredLeases(limit: number): Promise<number> {
    const { rowCount } = await this.pool.query({ ...closeExpiredLeasesStatement, values: [limit] });
    return rowCount ?? 0;
  }
}
