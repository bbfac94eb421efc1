import { ApiProperty } from '@nestjs/swagger';

const MICROS = { type: String, pattern: '^[0-9]+$', example: '1500000' };
const OPTIONAL_ID = { type: String, nullable: true };

/** One ledger row. Amounts are never negative: the kind says which way the money moved. */
export class LedgerEntryView {
  @ApiProperty({ description: 'Ledger row id (a decimal string; rows are numbered in the order written).' })
  id: string;

  @ApiProperty({
    description:
      'credit (money added), capture (a request or task paid), debit (money an operator took out); ' +
      'hold and release rows predate holds leaving the ledger and moved no money.',
    example: 'capture',
  })
  kind: string;

  @ApiProperty({ description: 'Amount, in micros.', ...MICROS })
  amountMicros: string;

  @ApiProperty({
    description:
      'The row’s unique key as stored: credit:<key> and debit:<key> for admin credits and debits, ' +
      'capture:<request id> for a capture.',
    example: 'credit:payment-1',
  })
  idempotencyKey: string;

  @ApiProperty({
    description: 'The request that paid (a capture); its request log has the same id.',
    ...OPTIONAL_ID,
  })
  requestId: string | null;

  @ApiProperty({ description: 'The task whose hold this capture settled, when a task paid.', ...OPTIONAL_ID })
  taskId: string | null;

  @ApiProperty({ description: 'Free text given with a credit or debit.', ...OPTIONAL_ID })
  note: string | null;

  @ApiProperty({ description: 'When the row was written (ISO 8601).', format: 'date-time' })
  createdAt: string;
}

/** One page of an account's ledger, newest first. */
export class LedgerPageView {
  @ApiProperty({ description: 'The rows.', type: () => LedgerEntryView, isArray: true })
  items: LedgerEntryView[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', type: String, nullable: true })
  nextCursor: string | null;
}
