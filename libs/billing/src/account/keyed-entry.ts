import type { PrismaClient } from '@gateway/db';

/** A ledger row written under an operator's or a payment's idempotency key (a credit or a debit). */
export interface KeyedEntry {
  id: bigint;
  accountId: string;
  kind: string;
  amount: bigint;
  /** As stored, in its namespace: `credit:<the caller's key>`, `debit:<the caller's key>`. */
  idempotencyKey: string;
  requestId: string | null;
  note: string | null;
  createdAt: Date;
}

/** What a keyed credit or debit asks for; a replay must repeat all of it. */
export interface KeyedRequest {
  accountId: string;
  amountMicros: bigint;
  note?: string;
}

/**
 * Whether `request` repeats the one that wrote `entry`. Only an exact repeat is a replay: the same key
 * with another account, amount or note is another operation, and answering it "already done" would
 * silently drop it.
 */
export function repeatsKeyedEntry(entry: KeyedEntry, request: KeyedRequest): boolean {
  return (
    entry.accountId === request.accountId &&
    entry.amount === request.amountMicros &&
    entry.note === (request.note ?? null)
  );
}

/** The row a stored key wrote. Read after the writing statement: a concurrent one may have committed. */
export async function findKeyedEntry(
  prisma: Pick<PrismaClient, 'ledgerEntry'>,
  idempotencyKey: string,
): Promise<KeyedEntry | undefined> {
  const row = await prisma.ledgerEntry.findUnique({
    where: { idempotencyKey },
    select: {
      id: true,
      accountId: true,
      kind: true,
      amount: true,
      idempotencyKey: true,
      requestId: true,
      note: true,
      createdAt: true,
    },
  });
  return row ?? undefined;
}
