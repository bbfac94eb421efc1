import { randomUUID } from 'node:crypto';
import type { Account, PrismaClient } from '@gateway/db';
import type { AccountBalance, CreateAccountInput, CreditInput } from './account.types';
import { findKeyedEntry, type KeyedEntry, repeatsKeyedEntry } from './keyed-entry';

/** The largest balance Postgres's int8 holds. */
const INT8_MAX = 9_223_372_036_854_775_807n;

/** Credit ledger keys live in their own namespace, apart from the capture: keys of settlements. */
const CREDIT_KEY_PREFIX = 'credit:';

/**
 * The credit's idempotency key was used before for another account, amount or note. Keys are unique
 * across accounts (a payment id is), so this credit was not applied; answering "already applied" instead
 * would silently drop it. `entry` is the credit the key made first.
 */
export class CreditKeyConflictError extends Error {
  constructor(
    readonly idempotencyKey: string,
    readonly entry: KeyedEntry,
  ) {
    super(
      `the credit idempotency key ${idempotencyKey} already credited ${entry.amount} micros to account ` +
        `${entry.accountId}`,
    );
    this.name = 'CreditKeyConflictError';
  }
}

/** The credit would take the balance beyond int8; nothing was written. */
export class CreditOverflowError extends RangeError {
  constructor(readonly amountMicros: bigint) {
    super(`a credit of ${amountMicros} micros would take the balance beyond the largest storable amount`);
    this.name = 'CreditOverflowError';
  }
}

/** Accounts and the money put into them. */
export class CreditService {
  constructor(private readonly prisma: Pick<PrismaClient, 'account' | 'ledgerEntry' | '$queryRaw'>) {}

  /**
   * Adds money: a `credit` ledger row and the balance change, in one statement. The ledger row's unique
   * key makes a replay (a retried payment webhook, a double-clicked admin action) change nothing; the key
   * reused for another account, amount or note throws CreditKeyConflictError, exactly as a debit's key
   * conflicts, and a credit the balance cannot hold throws CreditOverflowError.
   */
  async credit(input: CreditInput): Promise<{ applied: boolean }> {
    if (input.amountMicros <= 0n) throw new RangeError(`credit must be positive, got ${input.amountMicros}`);
    const idempotencyKey = CREDIT_KEY_PREFIX + input.idempotencyKey;
    // The account row is locked first (FOR UPDATE re-reads a row a concurrent credit changed) and the
    // sum taken in numeric, so a credit the balance cannot hold writes nothing instead of failing the
    // statement. An unknown account is not in `full_account`, so its insert still fails the foreign key.
    const rows = await this.prisma.$queryRaw<{ applied: boolean }[]>`
      WITH full_account AS (
        SELECT id FROM accounts
         WHERE id = ${input.accountId}
           AND balance::numeric + ${input.amountMicros}::int8 > ${INT8_MAX}::numeric
           FOR UPDATE
      ), entry AS (
        INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, note, created_at)
        SELECT ${input.accountId}, 'credit', ${input.amountMicros}::int8, ${idempotencyKey},
               ${input.note ?? null}, now() AT TIME ZONE 'UTC'
         WHERE NOT EXISTS (SELECT 1 FROM full_account)
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING account_id, amount
      ), credited AS (
        UPDATE accounts a
           SET balance = a.balance + e.amount, updated_at = now() AT TIME ZONE 'UTC'
          FROM entry e
         WHERE a.id = e.account_id
        RETURNING a.id
      )
      SELECT EXISTS (SELECT 1 FROM credited) AS applied`;
    if (rows[0]?.applied === true) return { applied: true };
    // Read after the statement: a concurrent credit with the same key may have committed during it.
    const entry = await findKeyedEntry(this.prisma, idempotencyKey);
    if (!entry) throw new CreditOverflowError(input.amountMicros);
    if (!repeatsKeyedEntry(entry, input)) throw new CreditKeyConflictError(input.idempotencyKey, entry);
    return { applied: false };
  }

  async createAccount(input: CreateAccountInput): Promise<Account> {
    const overdraftLimit = input.overdraftLimitMicros ?? 0n;
    assertOverdraftLimit(overdraftLimit);
    return this.prisma.account.create({
      data: { id: input.id ?? `acct_${randomUUID().replace(/-/g, '')}`, name: input.name, overdraftLimit },
    });
  }

  /** How far below zero balance − held may go; 0 forbids going negative. */
  async setOverdraft(accountId: string, overdraftLimitMicros: bigint): Promise<void> {
    assertOverdraftLimit(overdraftLimitMicros);
    await this.prisma.account.update({
      where: { id: accountId },
      data: { overdraftLimit: overdraftLimitMicros },
    });
  }

  /** The account's money, or undefined when there is no such account. */
  async balanceOf(accountId: string): Promise<AccountBalance | undefined> {
    const account = await this.prisma.account.findUnique({
      where: { id: accountId },
      select: { balance: true, held: true, overdraftLimit: true },
    });
    if (!account) return undefined;
    return {
      balance: account.balance,
      held: account.held,
      available: account.balance - account.held,
      overdraftLimit: account.overdraftLimit,
    };
  }
}

function assertOverdraftLimit(micros: bigint): void {
  if (micros < 0n) throw new RangeError(`overdraft limit must not be negative, got ${micros}`);
}
