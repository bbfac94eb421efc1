import { ApiProperty } from '@nestjs/swagger';
import { AccountView } from '@gateway/contracts';

/** One page of accounts, newest first; shaped as a page of logs is. */
export class AccountPageView {
  @ApiProperty({
    description: 'The accounts, as GET /admin/accounts/{id} shows each.',
    type: () => AccountView,
    isArray: true,
  })
  items: AccountView[];

  @ApiProperty({ description: 'Cursor of the next page; null on the last.', type: String, nullable: true })
  nextCursor: string | null;
}
