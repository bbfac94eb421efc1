import { ApiProperty } from '@nestjs/swagger';
import { AccountView } from '@gateway/contracts';

/** The answer to a credit: whether it was applied now (false for a replayed idempotency key). */
export class CreditResultView {
  @ApiProperty({ description: 'False when this idempotency key had been credited already.' })
  applied: boolean;

  @ApiProperty({ description: 'The account after the credit.', type: () => AccountView })
  account: AccountView;
}
