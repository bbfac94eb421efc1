import { NAME_RULES, StringField } from '@gateway/contracts';

/** Query of `GET /admin/keys`. */
export class KeyListQueryDto {
  @StringField({ description: 'Only the keys of this account.', optional: true, ...NAME_RULES })
  accountId?: string;
}
