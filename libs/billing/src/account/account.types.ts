export interface CreditInput {
  accountId: string;
  /** Micros to add; must be positive. */
  amountMicros: bigint;
  /** Identifies this credit (a payment id, an admin action id); a replay of it changes nothing. */
  idempotencyKey: string;
  note?: string;
}

export interface CreateAccountInput {
  /** Chosen by the caller, or generated. */
  id?: string;
  name: string;
  overdraftLimitMicros?: bigint;
}

export interface AccountBalance {
  /** Credited minus captured. */
  balance: bigint;
  /** Sum of open holds and of what open leases reserve. */
  held: bigint;
  /** balance − held; may go below zero, down to −overdraftLimit. */
  available: bigint;
  overdraftLimit: bigint;
}
