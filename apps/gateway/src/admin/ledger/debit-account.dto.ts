import { MicrosField, StringField } from '@gateway/contracts';

/** Body of `POST /admin/accounts/{id}/debits`; shaped as a credit's body is. */
export class DebitAccountDto {
  @MicrosField({ description: 'Amount to take out, in micros (greater than 0).', positive: true })
  amountMicros: string;

  @StringField({
    description: 'Makes a retried debit apply once; a retry must repeat the same amount and note.',
    nonEmpty: true,
    maxLength: 200,
  })
  idempotencyKey: string;

  @StringField({
    description: 'Free text for the ledger (why the money was taken out).',
    optional: true,
    maxLength: 1000,
  })
  note?: string;
}
