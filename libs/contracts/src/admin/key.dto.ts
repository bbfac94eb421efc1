import { EnumField, IsoDateField, StringField, StringListField } from '../validation/scalar-field.decorator';
import {
  AllowedIpsField,
  BudgetField,
  GovernanceBudgetDto,
  GovernanceLimitsDto,
  LimitsField,
} from './governance.dto';
import { KEY_STATUSES, KeyStatus, NAME_RULES } from './admin-values.constants';

export class CreateKeyDto {
  @StringField({ description: 'Account the key spends from.', ...NAME_RULES })
  accountId: string;

  @StringField({ description: 'Display name.', ...NAME_RULES })
  name: string;

  @IsoDateField({ description: 'When the key stops working (ISO 8601).', optional: true })
  expiresAt?: string;

  @StringListField({
    description: 'Models the key may use; empty or absent means every model.',
    optional: true,
    items: NAME_RULES,
  })
  allowedModels?: string[];

  @LimitsField('key')
  limits?: GovernanceLimitsDto | null;

  @BudgetField('key')
  budget?: GovernanceBudgetDto | null;

  @AllowedIpsField()
  allowedIps?: string[];
}

/** Every field optional; `expiresAt: null` removes the expiry. */
export class UpdateKeyDto {
  @StringField({ description: 'Display name.', optional: true, ...NAME_RULES })
  name?: string;

  @EnumField(KEY_STATUSES, { description: 'A disabled key is refused.', optional: true })
  status?: KeyStatus;

  @IsoDateField({ description: 'New expiry; null removes it.', optional: true, nullable: true })
  expiresAt?: string | null;

  @StringListField({
    description: 'Models the key may use; empty means every model.',
    optional: true,
    items: NAME_RULES,
  })
  allowedModels?: string[];

  @LimitsField('key')
  limits?: GovernanceLimitsDto | null;

  @BudgetField('key')
  budget?: GovernanceBudgetDto | null;

  @AllowedIpsField()
  allowedIps?: string[];
}
