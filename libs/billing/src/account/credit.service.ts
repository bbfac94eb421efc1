import { randomUUID } from 'node:crypto';
import type { Account, PrismaClient } from '@gateway/db';
import type { AccountBalance, CreateAccountInput, CreditInput } from './account.types';

/** Credit ledger keys live in their own namespace, apart from the capture: keys of settlements. */
const CREDIT_KEY_PREFIX = 'credit:';

/**
 * The credit's idempotency key already credited another account. Keys are unique across accounts (a
 * payment id is), so the credit was not applied; answering "already applied" instead would silently
 * leave this account uncredited.
 */
export class CreditKeyTakenError extends Error {
  constructor(readonly idempotencyKey: string) {
    super(`the credit idempotency key ${idempotencyKey} already credited another account`);
    this.name = 'CreditKeyTakenError';
  }
}

/** Accounts and the money put into them. */
export class CreditService {
  constructor(private readonly prisma: Pick<PrismaClient, 'account' | '$queryRaw'>) {}

  /**
   * Adds money: a `credit` ledger row and the balance change, in one statement. The ledger row's unique
   * key makes a replay (a retried payment webhook, a double-clicked admin action) change nothing; a key
   * that credited another account throws CreditKeyTakenError.
   */
  async credit(input: CreditInput): Promise<{ applied: boolean }> {
    if (input.amountMicros <= 0n) throw new RangeError(`credit must be positive, got ${input.amountMicros}`);
    const idempotencyKey = CREDIT_KEY_PREFIX + input.idempotencyKey;
    const rows = await this.prisma.$queryRaw<{ applied: boolean }[]>`
      WITH entry AS (
        INSERT INTO ledger_entries (account_id, kind, amount, idempotency_key, note, created_at)
        VALUES (${input.accountId}, 'credit', ${input.amountMicros}::int8, ${idempotencyKey},
                ${input.note ?? null}, now() AT TIME ZONE 'UTC')
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
    const [owner] = await this.prisma.$queryRaw<{ account_id: string }[]>`
      SELECT account_id FROM ledger_entries WHERE idempotency_key = ${idempotencyKey}`;
    if (owner && owner.account_id !== input.accountId) throw new CreditKeyTakenError(input.idempotencyKey);
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
