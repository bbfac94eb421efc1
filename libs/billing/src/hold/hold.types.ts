/**
 * The largest hold one request may take: 10^14 micros (100 million units), far above what any real
 * request costs, and far enough below the int8 columns' range that a lease reserving
 * LEASE_HOLDS_AHEAD (at most 10,000) more holds of that size still fits in them.
 */
export const MAX_HOLD_MICROS = 100_000_000_000_000n;

export interface TakeHoldInput {
  /** The request's id; the hold, its ledger row and its settlement are keyed by it. */
  requestId: string;
  accountId: string;
  keyId: string;
  model: string;
  route: string;
  /** Micros to reserve: an upper bound of the request's cost. */
  amount: bigint;
  /**
   * After this long, the reaper settles the hold if no process did. Holds taken from a lease have no
   * deadline of their own: the lease's lifetime bounds them.
   */
  ttlMs: number;
}

/**
 * A hold taken in memory from a lease (see HoldLeases). It never has a row: the lease accounts for the
 * amount, and the settlement gives the request its log and ledger rows.
 */
export interface LeasedHold {
  leaseId: string;
  accountId: string;
  keyId: string;
  model: string;
  route: string;
  amount: bigint;
}

export interface HoldRefused {
  ok: false;
  reason: 'insufficient_balance';
  /** The largest hold the account could take when refused: balance − held + overdraft limit. */
  availableMicros: bigint;
}

export type TakeHoldResult =
  | {
      ok: true;
      /** Set when the hold was taken from a lease rather than written as an open hold row. */
      lease?: LeasedHold;
    }
  | HoldRefused;

/**
 * A hold written as a row in `holds` (HoldService): it has no lease, and only RowHoldSettlement can end
 * it. Tasks and image requests hold this way; a row outlives the process, so the hold reaper settles
 * it if its owner dies.
 */
export type TakeRowHoldResult = { ok: true; lease?: never } | HoldRefused;
