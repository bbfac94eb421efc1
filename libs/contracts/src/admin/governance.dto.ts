import { BUDGET_PERIODS, cidrProblem, type BudgetPeriod } from '@gateway/auth';
import { Field } from '../validation/field.decorator';
import { MicrosField } from '../validation/micros-field.decorator';
import { NestedField } from '../validation/nested-field.decorator';
import { EnumField, IntegerField } from '../validation/scalar-field.decorator';
import { checkList, checkString, type ListRules } from '../validation/value-checks.util';

const LIMIT_BOUNDS = { min: 1, max: 2_000_000_000 } as const;

/**
 * `limits` of a key or an account (docs/governance.md). Each member optional; `null` removes it. On
 * an account the limits count all its keys together.
 */
export class GovernanceLimitsDto {
  @IntegerField({
    description: 'Inference requests per UTC minute.',
    optional: true,
    nullable: true,
    ...LIMIT_BOUNDS,
  })
  requestsPerMinute?: number | null;

  @IntegerField({
    description: 'Text tokens per UTC minute: the estimate at admission, corrected by the reported usage.',
    optional: true,
    nullable: true,
    ...LIMIT_BOUNDS,
  })
  tokensPerMinute?: number | null;

  @IntegerField({
    description: 'Inference requests in flight at once, on every gateway instance together.',
    optional: true,
    nullable: true,
    ...LIMIT_BOUNDS,
  })
  concurrentRequests?: number | null;

  @IntegerField({
    description: 'Tasks (video, music, /bt, theta) created and not yet finished.',
    optional: true,
    nullable: true,
    ...LIMIT_BOUNDS,
  })
  outstandingTasks?: number | null;
}

/** `budget` of a key or an account: the most it may spend per UTC calendar period. */
export class GovernanceBudgetDto {
  @MicrosField({
    description: 'The most spent per period, in micros (captures and open holds counted).',
    positive: true,
  })
  amountMicros: string;

  @EnumField(BUDGET_PERIODS, {
    description: 'UTC calendar day, week (from Monday) or month, or `total` (never resets).',
  })
  period: BudgetPeriod;
}

/** Whose limits and budget a body sets: a key's own, or those of all an account's keys together. */
export type GovernedScope = 'key' | 'account';

const SCOPE_PHRASE: Record<GovernedScope, string> = {
  key: 'this key',
  account: "all the account's keys together",
};

/** `limits` of a key's or an account's create and update bodies. */
export function LimitsField(scope: GovernedScope): PropertyDecorator {
  return NestedField(() => GovernanceLimitsDto, {
    description: `Limits of ${SCOPE_PHRASE[scope]} (docs/governance.md). Each member optional, null removes it; null removes them all.`,
    optional: true,
    nullable: true,
  });
}

/** `budget` of a key's or an account's create and update bodies. */
export function BudgetField(scope: GovernedScope): PropertyDecorator {
  return NestedField(() => GovernanceBudgetDto, {
    description: `The most ${SCOPE_PHRASE[scope]} may spend per UTC calendar period; null removes it.`,
    optional: true,
    nullable: true,
  });
}

/** At most this many ranges per key: checked on every request of the key. */
const MAX_ALLOWED_IPS = 100;

/** `allowedIps` of a key's create and update bodies: CIDR ranges (or single addresses), IPv4 and IPv6. */
export function AllowedIpsField(): PropertyDecorator {
  const rules: ListRules = { maxItems: MAX_ALLOWED_IPS };
  return Field(
    {
      description:
        'CIDR ranges (IPv4, IPv6) the key may be used from; empty means anywhere. The client address follows TRUST_PROXY.',
      optional: true,
    },
    { type: String, isArray: true, example: ['203.0.113.0/24', '2001:db8::/32'], maxItems: MAX_ALLOWED_IPS },
    'cidrList',
    (value) =>
      checkList(
        value,
        (item) => checkString(item, { nonEmpty: true, maxLength: 64 }) ?? cidrProblem(item as string),
        rules,
      ),
  );
}
