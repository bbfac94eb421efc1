import { MicrosField } from '../validation/micros-field.decorator';
import { StringField } from '../validation/scalar-field.decorator';
import { NAME_RULES } from './admin-values.constants';
import { BudgetField, GovernanceBudgetDto, GovernanceLimitsDto, LimitsField } from './governance.dto';

export class CreateAccountDto {
  @StringField({ description: 'Display name.', ...NAME_RULES })
  name: string;

  @MicrosField({
    description: 'How far below zero the available amount may go, in micros.',
    optional: true,
    default: '0',
  })
  overdraftLimitMicros: string = '0';

  @LimitsField('account')
  limits?: GovernanceLimitsDto | null;

  @BudgetField('account')
  budget?: GovernanceBudgetDto | null;
}

export class CreditAccountDto {
  @MicrosField({ description: 'Amount to add, in micros (greater than 0).', positive: true })
  amountMicros: string;

  @StringField({ description: 'Makes a retried credit apply once.', nonEmpty: true, maxLength: 200 })
  idempotencyKey: string;

  @StringField({ description: 'Free text for the ledger.', optional: true, maxLength: 1000 })
  note?: string;
}
