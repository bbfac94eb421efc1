import { budgetOf, limitsOf, LIMIT_NAMES, type GovernanceLimits } from '@gateway/auth';
import type {
  GovernanceBudgetDto,
  GovernanceBudgetView,
  GovernanceLimitsDto,
  GovernanceLimitsView,
} from '@gateway/contracts';
import { Prisma } from '@gateway/db';

/** The governance columns a key or an account row stores. */
export interface GovernanceColumnValues {
  limits: Prisma.JsonValue | null;
  budgetMicros: bigint | null;
  budgetPeriod: string | null;
}

type LimitsData = Prisma.InputJsonValue | typeof Prisma.DbNull;

/**
 * The column changes of a `limits` and `budget` input: absent leaves them; null removes them; a limits
 * object changes the members it names (a member set to null is removed) and keeps the others.
 */
export function governanceDataOf(
  input: { limits?: GovernanceLimitsDto | null; budget?: GovernanceBudgetDto | null },
  stored: Prisma.JsonValue | null,
): { limits?: LimitsData; budgetMicros?: bigint | null; budgetPeriod?: string | null } {
  return {
    ...(input.limits !== undefined ? { limits: mergedLimits(input.limits, stored) } : {}),
    ...(input.budget !== undefined
      ? {
          budgetMicros: input.budget === null ? null : BigInt(input.budget.amountMicros),
          budgetPeriod: input.budget === null ? null : input.budget.period,
        }
      : {}),
  };
}

function mergedLimits(input: GovernanceLimitsDto | null, stored: Prisma.JsonValue | null): LimitsData {
  if (input === null) return Prisma.DbNull;
  const merged: Record<string, number> = { ...(limitsOf(stored) ?? {}) };
  for (const name of LIMIT_NAMES) {
    const value = input[name];
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  return Object.keys(merged).length > 0 ? merged : Prisma.DbNull;
}

export function limitsViewOf(stored: Prisma.JsonValue | null): GovernanceLimitsView | null {
  const limits: GovernanceLimits | null = limitsOf(stored);
  return limits ? { ...limits } : null;
}

export function budgetViewOf(values: GovernanceColumnValues): GovernanceBudgetView | null {
  const budget = budgetOf(values.budgetMicros?.toString(), values.budgetPeriod);
  return budget ? { amountMicros: budget.amountMicros.toString(), period: budget.period } : null;
}
