export interface TakeHoldInput {
  /** The request's id; the hold, its ledger row and its settlement are keyed by it. */
  requestId: string;
  accountId: string;
  keyId: string;
  model: string;
  route: string;
  /** Micros to reserve: an upper bound of the request's cost. */
  amount: bigint;
  /** After this long, the reaper settles the hold if no process did. */
  ttlMs: number;
}

export type TakeHoldResult =
  | { ok: true }
  | {
      ok: false;
      reason: 'insufficient_balance';
      /** The largest hold the account could take when refused: balance − held + overdraft limit. */
      availableMicros: bigint;
    };
