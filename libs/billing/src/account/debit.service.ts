import type { PrismaClient } from '@gateway/db';
import type { DebitInput, DebitOutcome } from './debit.types';
import { findKeyedEntry, repeatsKeyedEntry } from './keyed-entry';

/** Debit ledger keys live in their own namespace, apart from credit: and capture: keys. */
const DEBIT_KEY_PREFIX = 'debit:';

/**
 * Takes money out of an account outside any request: an operator's correction (a credit given by
 * mistake, a chargeback). The ledger stays balanced because a debit is a ledger row of its own kind
 * (`debit`, a positive amount) written in the same statement as the balance change, exactly as a credit
 * is; rows are never edited or deleted (the ledger_guards trigger).
 *
 * Overdraft rule: a debit may take the account below zero, but only as far as any spending could, that
 * is while balance − held − amount ≥ −overdraftLimit. Counting `held` keeps every open hold fully
 * capturable (its settlement budget stays at least the hold), and the audit's "within overdraft"
 * invariant stays true by construction. A correction that must go further is made explicit by raising
 * the account's overdraft limit first.
 */
export class DebitService {
  constructor(private readonly prisma: Pick<PrismaClient, 'account' | 'ledgerEntry' | '$queryRaw'>) {}

  async debit(input: DebitInput): Promise<DebitOutcome> {
    if (input.amountMicros <= 0n) throw new RangeError(`debit must be positive, got ${input.amountMicros}`);
    const idempotencyKey = DEBIT_KEY_PREFIX + input.idempotencyKey;
    const note = input.note ?? null;
    // The account row is locked before the check (FOR UPDATE re-reads a row a concurrent hold or
    // settlement changed), and the sum is taken in numeric so that no amount can overflow int8.
    const rows = await this.prisma.$queryRaw<{ applied: boolean }[]>`
      WITH allowed AS (
        SELECT id FROM accounts
         WHERE id = ${input.accountId}
           AND balance::numeric - held + overdraft_limit >= ${input.amountMicros}::int8
           FOR UPDATE
      ), entry AS (
        INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, note, created_at)
        SELECT id, 'debit', ${input.amountMicros}::int8, ${idempotencyKey}, ${note},
               now() AT TIME ZONE 'UTC'
          FROM allowed
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING account_id, amount
      ), debited AS (
        UPDATE accounts a
           SET balance = a.balance - e.amount, updated_at = now() AT TIME ZONE 'UTC'
          FROM entry e
         WHERE a.id = e.account_id
        RETURNING a.id
      )
      SELECT EXISTS (SELECT 1 FROM debited) AS applied`;
    const entry = await findKeyedEntry(this.prisma, idempotencyKey);
    if (rows[0]?.applied === true && entry) return { status: 'applied', entry };
    if (entry)
      return repeatsKeyedEntry(entry, input)
        ? { status: 'replayed', entry }
        : { status: 'key_conflict', entry };
    const account = await this.prisma.account.findUnique({
      where: { id: input.accountId },
      select: { balance: true, held: true, overdraftLimit: true },
    });
    if (!account) return { status: 'no_account' };
    return {
      status: 'beyond_overdraft',
      availableMicros: account.balance - account.held,
      overdraftLimitMicros: account.overdraftLimit,
    };
  }
}
