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

export type TakeHoldResult =
  | {
      ok: true;
      /** Set when the hold was taken from a lease rather than written as an open hold row. */
      lease?: LeasedHold;
    }
  | {
      ok: false;
      reason: 'insufficient_balance';
      /** The largest hold the account could take when refused: balance − held + overdraft limit. */
      availableMicros: bigint;
    };
