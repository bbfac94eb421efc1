import { ApiProperty } from '@nestjs/swagger';
import { AccountView } from '@gateway/contracts';
import { LedgerEntryView } from './ledger-entry.view';

/** The answer to a debit, the same for its replays but for `applied`. */
export class DebitResultView {
  @ApiProperty({ description: 'False when this idempotency key had debited the account already.' })
  applied: boolean;

  @ApiProperty({
    description: 'The debit’s ledger row (for a replay, the row the first call wrote).',
    type: () => LedgerEntryView,
  })
  entry: LedgerEntryView;

  @ApiProperty({ description: 'The account after the debit.', type: () => AccountView })
  account: AccountView;
}
