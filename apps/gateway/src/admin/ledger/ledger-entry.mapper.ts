import type { LedgerEntry } from '@gateway/db';
import type { LedgerEntryView } from './ledger-entry.view';

/** The columns a view needs (a debit's outcome carries these, not the whole row). */
export type LedgerEntryFields = Pick<
  LedgerEntry,
  'id' | 'kind' | 'amount' | 'idempotencyKey' | 'requestId' | 'note' | 'createdAt'
>;

/** Ids and money leave as decimal strings: a JSON number would round them above 2^53. */
export function toLedgerEntryView(row: LedgerEntryFields, taskId: string | null = null): LedgerEntryView {
  return {
    id: row.id.toString(),
    kind: row.kind,
    amountMicros: row.amount.toString(),
    idempotencyKey: row.idempotencyKey,
    requestId: row.requestId,
    taskId,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}
