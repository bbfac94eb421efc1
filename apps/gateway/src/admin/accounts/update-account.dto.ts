import {
  BudgetField,
  GovernanceBudgetDto,
  GovernanceLimitsDto,
  LimitsField,
  MicrosField,
  NAME_RULES,
  StringField,
} from '@gateway/contracts';

/** Body of `PATCH /admin/accounts/:id`; every field optional. */
export class UpdateAccountDto {
  @StringField({ description: 'Display name.', optional: true, ...NAME_RULES })
  name?: string;

  @MicrosField({ description: 'How far below zero the available amount may go, in micros.', optional: true })
  overdraftLimitMicros?: string;

  @LimitsField('account')
  limits?: GovernanceLimitsDto | null;

  @BudgetField('account')
  budget?: GovernanceBudgetDto | null;
}
