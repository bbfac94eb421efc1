import {
  GovernanceBudgetDto,
  GovernanceLimitsDto,
  MicrosField,
  NAME_RULES,
  NestedField,
  StringField,
} from '@gateway/contracts';

/** Body of `PATCH /admin/accounts/:id`; every field optional. */
export class UpdateAccountDto {
  @StringField({ description: 'Display name.', optional: true, ...NAME_RULES })
  name?: string;

  @MicrosField({ description: 'How far below zero the available amount may go, in micros.', optional: true })
  overdraftLimitMicros?: string;

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
