import { MAX_HOLD_MICROS, type TakeHoldInput } from './hold.types';

/** Why a hold request is malformed (a caller's bug, never a client's), or undefined when it is not. */
export function holdInputProblem(input: TakeHoldInput): RangeError | undefined {
  if (input.amount < 0n) return new RangeError(`hold amount must not be negative, got ${input.amount}`);
  if (input.amount > MAX_HOLD_MICROS) {
    return new RangeError(`hold amount must not exceed ${MAX_HOLD_MICROS}, got ${input.amount}`);
  }
  if (!Number.isSafeInteger(input.ttlMs) || input.ttlMs <= 0) {
    return new RangeError(`hold ttlMs must be a positive whole number, got ${input.ttlMs}`);
  }
  return undefined;
}

/** The refusal of a hold the account cannot cover. */
export function insufficientBalance(availableMicros: bigint) {
  return { ok: false as const, reason: 'insufficient_balance' as const, availableMicros };
}

export function unknownAccountError(accountId: string): Error {
  return new Error(`cannot hold for unknown account ${accountId}`);
}
