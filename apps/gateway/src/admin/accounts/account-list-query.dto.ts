import { NAME_RULES, StringField } from '@gateway/contracts';
import { PageQueryDto } from '../shared/page-query.dto';

/** Query of `GET /admin/accounts`. Its page: PageQueryDto. */
export class AccountListQueryDto extends PageQueryDto {
  @StringField({
    description: 'Only accounts whose name contains this text, ignoring case (% and _ match themselves).',
    optional: true,
    ...NAME_RULES,
  })
  search?: string;
}
