import type { KeyedEntry } from './keyed-entry';

export interface DebitInput {
  accountId: string;
  /** Micros to take away; must be positive. */
  amountMicros: bigint;
  /** Identifies this debit (an operator's correction, a chargeback id); a replay of it changes nothing. */
  idempotencyKey: string;
  note?: string;
}

/** The ledger row a debit wrote (or, for a replay, the one its key wrote first); its key is `debit:<key>`. */
export type DebitEntry = KeyedEntry;

/**
 * What a debit did. Outcomes an operator can cause are values, not exceptions, so the caller answers
 * each one with its own status.
 */
export type DebitOutcome =
  /** Written now: one `debit` ledger row, and the balance lowered by its amount. */
  | { status: 'applied'; entry: DebitEntry }
  /** The key debited this account this amount with this note before; nothing changed. */
  | { status: 'replayed'; entry: DebitEntry }
  /** The key was used before for another account, amount or note; nothing changed. */
  | { status: 'key_conflict'; entry: DebitEntry }
  /** balance − held − amount would fall below −overdraftLimit; nothing changed. */
  | { status: 'beyond_overdraft'; availableMicros: bigint; overdraftLimitMicros: bigint }
  | { status: 'no_account' };
