import { MicrosField } from '../validation/micros-field.decorator';
import { StringField } from '../validation/scalar-field.decorator';
import { NestedField } from '../validation/nested-field.decorator';
import { NAME_RULES } from './admin-values.constants';
import { GovernanceBudgetDto, GovernanceLimitsDto } from './governance.dto';

export class CreateAccountDto {
  @StringField({ description: 'Display name.', ...NAME_RULES })
  name: string;

  @MicrosField({
    description: 'How far below zero the available amount may go, in micros.',
    optional: true,
    default: '0',
  })
  overdraftLimitMicros: string = '0';

  @NestedField(() => GovernanceLimitsDto, {
    description:
      "Limits of all the account's keys together (docs/governance.md). Each member optional, null removes it; null removes them all.",
    optional: true,
    nullable: true,
  })
  limits?: GovernanceLimitsDto | null;

  @NestedField(() => GovernanceBudgetDto, {
    description:
      "The most all the account's keys together may spend per UTC calendar period; null removes it.",
    optional: true,
    nullable: true,
  })
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
