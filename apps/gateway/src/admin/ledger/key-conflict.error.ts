import type { KeyedEntry } from '@gateway/billing';
import { GatewayError } from '@gateway/errors';

/**
 * The 409 of a credit or debit whose idempotency key already made another entry (another account,
 * amount or note): one answer for both routes, naming what the key did first so the operator can tell
 * a mistyped retry from a reused key.
 */
export function idempotencyKeyConflict(idempotencyKey: string, entry: KeyedEntry): GatewayError {
  const done =
    entry.kind === 'debit' ? `debited ${entry.amount} micros from` : `credited ${entry.amount} micros to`;
  return new GatewayError(
    'idempotency_conflict',
    `The idempotency key "${idempotencyKey}" already ${done} account "${entry.accountId}"; a retry must ` +
      `repeat its account, amountMicros and note, and a new ${entry.kind} needs a new key.`,
    { param: 'idempotencyKey' },
  );
}
