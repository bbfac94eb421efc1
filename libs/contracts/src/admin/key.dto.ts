import { EnumField, IsoDateField, StringField, StringListField } from '../validation/scalar-field.decorator';
import { NestedField } from '../validation/nested-field.decorator';
import { CidrListField, GovernanceBudgetDto, GovernanceLimitsDto, MAX_ALLOWED_IPS } from './governance.dto';
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

  @NestedField(() => GovernanceLimitsDto, {
    description:
      'Limits of this key (docs/governance.md). Each member optional, null removes it; null removes them all.',
    optional: true,
    nullable: true,
  })
  limits?: GovernanceLimitsDto | null;

  @NestedField(() => GovernanceBudgetDto, {
    description: 'The most this key may spend per UTC calendar period; null removes it.',
    optional: true,
    nullable: true,
  })
  budget?: GovernanceBudgetDto | null;

  @CidrListField({
    description:
      'CIDR ranges (IPv4, IPv6) the key may be used from; empty means anywhere. The client address follows TRUST_PROXY.',
    optional: true,
    maxItems: MAX_ALLOWED_IPS,
  })
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

  @NestedField(() => GovernanceLimitsDto, {
    description:
      'Limits of this key (docs/governance.md). Each member optional, null removes it; null removes them all.',
    optional: true,
    nullable: true,
  })
  limits?: GovernanceLimitsDto | null;

  @NestedField(() => GovernanceBudgetDto, {
    description: 'The most this key may spend per UTC calendar period; null removes it.',
    optional: true,
    nullable: true,
  })
  budget?: GovernanceBudgetDto | null;

  @CidrListField({
    description:
      'CIDR ranges (IPv4, IPv6) the key may be used from; empty means anywhere. The client address follows TRUST_PROXY.',
    optional: true,
    maxItems: MAX_ALLOWED_IPS,
  })
  allowedIps?: string[];
}
